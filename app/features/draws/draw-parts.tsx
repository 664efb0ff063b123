import { Form, Link } from "react-router";
import { CoverPicture } from "~/features/events/cover-picture";
import { Card } from "~/ui/card";
import { formatMoney } from "~/ui/money";
import { countOf, formatCount } from "~/ui/plural";
import { useSite } from "~/ui/site";
import type { DrawImage } from "../../../db/schema";
import type { BundleOffer, OfferedDrawPage } from "./catalogue.server";
import type { EntryChoice } from "./draw-rules";
import { imageCover } from "./draw-tiles";

/**
 * The prize-draw page's parts at the top of the page: the prize photos and the entry form with its
 * bundles (the rest is in draw-page-details.tsx). Entering is a plain POST form, so it works
 * without JavaScript.
 */

/**
 * The prize photos: a row that scrolls with a swipe or the arrow keys (it is focusable), each photo
 * snapping into place. No script needed.
 */
export function DrawGallery({ images, title }: { images: DrawImage[]; title: string }) {
  if (images.length === 0) return null;
  return (
    <section aria-label={`Photos of the prize: ${title}`} className="space-y-2">
      <ul
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so keyboards can scroll it.
        tabIndex={0}
        className="flex snap-x snap-mandatory gap-3 overflow-x-auto rounded-2xl focus-visible:outline-2 focus-visible:outline-accent"
      >
        {images.map((image, index) => (
          <li key={image.hash} className="w-full shrink-0 snap-center overflow-hidden rounded-2xl bg-asphalt-900">
            <CoverPicture
              cover={imageCover(image)}
              sizes="(min-width: 1200px) 720px, 100vw"
              priority={index === 0}
              className="aspect-video size-full"
            />
          </li>
        ))}
      </ul>
      {images.length > 1 ? (
        <p className="text-sm text-muted">{images.length} photos: swipe, or focus the photos and use the arrow keys.</p>
      ) : null}
    </section>
  );
}

/**
 * The entry form: the question, the bundles, the confirmation of age, and Add to cart (or Enter
 * free for a giveaway). One POST, no script needed. Visitors see it whole, prices and question
 * included; their press leads to sign-in, and `choice` is what they had chosen when they come back.
 */
export function EntryForm({
  page,
  viewer,
  mine,
  play,
  choice,
  message,
}: {
  page: OfferedDrawPage;
  viewer: "visitor" | "member";
  mine: number;
  /** The member's responsible-play state: a break that stops entries, and what is left under their limits. */
  play: { blocked: string | null; left: { week: number | null; month: number | null } } | null;
  choice: EntryChoice;
  message: string | null;
}) {
  const { currency } = useSite();
  const price = (minor: number) => formatMoney(minor, currency);
  const left = Math.max(0, page.maxPerMember - mine);
  const free = page.kind === "giveaway";
  if (page.phase !== "open") return null;
  return (
    <Card as="section" aria-labelledby="enter" className="space-y-5 p-5 sm:p-6">
      <h2 id="enter" className="wide text-2xl font-black">
        {free ? "Enter free" : "Enter"}
      </h2>
      <p className="text-sm text-muted">
        {mine > 0
          ? `You hold ${countOf(mine, "entry", "entries")}; you can add ${left} more.`
          : `Up to ${countOf(page.maxPerMember, "entry", "entries")} per person.`}
      </p>
      {message ? (
        <p
          role="alert"
          className="rounded-lg bg-red-100 p-3 font-semibold text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {message}
        </p>
      ) : null}
      {play?.blocked ? (
        <p className="font-semibold">
          {play.blocked}.{" "}
          <Link to="/settings/responsiblePlay" className="text-link underline">
            Responsible play settings
          </Link>
        </p>
      ) : left === 0 ? (
        <p className="font-semibold">You have reached the limit for this draw.</p>
      ) : (
        <Form method="post" className="space-y-5">
          <fieldset className="space-y-2">
            <legend className="font-bold">{page.question}</legend>
            {page.options.map((option, index) => (
              <label
                key={option}
                className="flex items-center gap-3 rounded-lg border border-line p-3 has-checked:border-accent"
              >
                <input
                  type="radio"
                  name="answer"
                  value={index}
                  defaultChecked={choice.answer === index}
                  required
                  className="size-4 accent-accent"
                />
                {option}
              </label>
            ))}
          </fieldset>
          {free ? null : <PricingTable bundles={page.bundles} price={price} left={left} chosen={choice.bundle} />}
          {!free && page.allowPicks ? (
            <div className="space-y-1">
              <label htmlFor="picks" className="font-bold">
                Choose your numbers (optional)
              </label>
              <p id="picks-hint" className="text-sm text-muted">
                From 1 to {formatCount(page.totalEntries)}, separated by commas, up to one per entry. Any entries
                without a number get one at random when you pay.
              </p>
              <input
                id="picks"
                name="picks"
                inputMode="numeric"
                autoComplete="off"
                aria-describedby="picks-hint"
                placeholder="7, 77, 777"
                defaultValue={choice.picks}
                className="h-11 w-full rounded-lg border border-line bg-surface px-3"
              />
            </div>
          ) : null}
          {!free && play && (play.left.week !== null || play.left.month !== null) ? (
            <p className="text-sm text-muted">
              Your spending limit leaves{" "}
              {[
                play.left.week === null ? null : `${price(play.left.week)} this week`,
                play.left.month === null ? null : `${price(play.left.month)} this month`,
              ]
                .filter(Boolean)
                .join(" and ")}
              .{" "}
              <Link to="/settings/responsiblePlay" className="text-link underline">
                Change it
              </Link>
            </p>
          ) : null}
          <label className="flex items-start gap-3">
            <input
              type="checkbox"
              name="adult"
              value="yes"
              defaultChecked={choice.adult}
              required
              className="mt-1 size-4 accent-accent"
            />
            <span>I am 18 or over and I accept this draw's rules.</span>
          </label>
          <button
            type="submit"
            name="intent"
            value={free ? "enter" : "add"}
            aria-describedby={viewer === "visitor" ? "sign-in-first" : undefined}
            className="flex h-12 w-full items-center justify-center rounded-full bg-accent font-bold text-on-accent hover:bg-accent-strong"
          >
            {free ? "Enter the giveaway" : "Add to cart"}
          </button>
          {viewer === "visitor" ? (
            <p id="sign-in-first" className="text-center text-sm text-muted">
              You will be asked to sign in or create an account first. Your choices are kept.
            </p>
          ) : null}
        </Form>
      )}
    </Card>
  );
}

/** Entry bundles: "1 for £2, 5 for £8…", each with its note (what it saves, a member price). */
function PricingTable({
  bundles,
  price,
  left,
  chosen,
}: {
  bundles: BundleOffer[];
  price: (minor: number) => string;
  left: number;
  /** The bundle chosen before signing in, if any; else the smallest. */
  chosen: number | null;
}) {
  const checked = bundles.some((bundle) => bundle.entries === chosen && bundle.entries <= left)
    ? chosen
    : bundles[0]?.entries;
  return (
    <fieldset className="space-y-2">
      <legend className="font-bold">How many entries?</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {bundles.map((bundle) => {
          const tooMany = bundle.entries > left;
          return (
            <label
              key={bundle.entries}
              className="flex items-center justify-between gap-3 rounded-lg border border-line p-3 has-checked:border-accent has-disabled:opacity-60"
            >
              <span className="flex items-center gap-3">
                <input
                  type="radio"
                  name="bundle"
                  value={bundle.entries}
                  defaultChecked={bundle.entries === checked}
                  disabled={tooMany}
                  required
                  className="size-4 accent-accent"
                />
                <span>
                  <span className="font-bold">{countOf(bundle.entries, "entry", "entries")}</span>
                  {bundle.note ? <span className="block text-sm text-muted">{bundle.note}</span> : null}
                </span>
              </span>
              <span className="wide tabular text-lg font-black">{price(bundle.price)}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
