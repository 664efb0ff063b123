import { ChevronLeft, ChevronRight, Expand, Flag, Heart, Link2, X } from "lucide-react";
import { type KeyboardEvent, type TouchEvent, useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { CarPicture } from "~/features/media/car-picture";
import { PlainFieldErrors } from "~/ui/plain-field-errors";
import { countOf, plural } from "~/ui/plural";
import { photoAlt } from "./car-photo-alt";
import { carTitle } from "./car-tile";
import { MAX_REPORT_NOTE, REPORT_REASON_LABELS, REPORT_REASON_LIST } from "./report-labels";
import type { CommunityCar } from "./showcase.server";

type Photo = CommunityCar["photos"][number];

/**
 * The car's photos: one at a time with previous / next buttons, the arrow keys, a swipe on touch
 * screens, thumbnails, and full screen in a modal dialog (Escape closes it).
 */
export function CarGallery({ car, photos }: { car: { year: number; make: string; model: string }; photos: Photo[] }) {
  const [index, setIndex] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const touchStart = useRef<number | null>(null);
  const count = photos.length;
  if (count === 0) {
    return (
      <div className="grid aspect-[4/3] place-items-center rounded-2xl bg-surface-sunken text-muted">
        No photos yet.
      </div>
    );
  }
  const current = photos[Math.min(index, count - 1)]!;
  const go = (step: number) => setIndex((value) => (value + step + count) % count);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowRight") {
      event.preventDefault();
      go(1);
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      go(-1);
    }
  };
  const onTouchStart = (event: TouchEvent) => {
    touchStart.current = event.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const end = event.changedTouches[0]?.clientX;
    touchStart.current = null;
    if (start === null || end === undefined || Math.abs(end - start) < 40) return;
    go(end < start ? 1 : -1);
  };
  const button =
    "grid size-11 place-items-center rounded-full bg-asphalt-950/75 text-white ring-1 ring-white/20 hover:bg-asphalt-950 focus-visible:outline-2 focus-visible:outline-accent";
  const stage = (full: boolean) => (
    <div
      className={`relative overflow-hidden ${full ? "h-full" : "rounded-2xl"} bg-asphalt-950`}
      onTouchStart={onTouchStart}
      onTouchEnd={onTouchEnd}
    >
      <CarPicture
        key={current.id}
        photo={current}
        alt={photoAlt(car, current, index)}
        layout="gallery"
        priority={index === 0 && !full}
        className={full ? "size-full object-contain" : "aspect-[4/3] w-full object-cover"}
      />
      {current.hidden ? (
        <span className="absolute left-3 top-3 rounded-full bg-asphalt-950/85 px-3 py-1 text-xs font-bold text-white">
          Hidden by moderators
        </span>
      ) : null}
      {count > 1 ? (
        <>
          <button type="button" onClick={() => go(-1)} className={`${button} absolute left-3 top-1/2 -translate-y-1/2`}>
            <ChevronLeft aria-hidden className="size-6" />
            <span className="sr-only">Previous photo</span>
          </button>
          <button type="button" onClick={() => go(1)} className={`${button} absolute right-3 top-1/2 -translate-y-1/2`}>
            <ChevronRight aria-hidden className="size-6" />
            <span className="sr-only">Next photo</span>
          </button>
        </>
      ) : null}
    </div>
  );
  return (
    <section aria-roledescription="carousel" aria-label={`Photos of the ${carTitle(car)}`} className="space-y-3">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between photos while focus is inside. */}
      <div onKeyDown={onKeyDown} className="relative">
        {stage(false)}
        <button
          type="button"
          onClick={() => dialog.current?.showModal()}
          className={`${button} absolute bottom-3 right-3`}
        >
          <Expand aria-hidden className="size-5" />
          <span className="sr-only">Show full screen</span>
        </button>
      </div>
      <p className="text-sm text-muted" aria-live="polite">
        Photo {index + 1} of {count}
        {count > 1 ? ": use the arrow keys, the buttons or swipe." : ""}
      </p>
      {count > 1 ? (
        <ul className="flex gap-2 overflow-x-auto pb-1">
          {photos.map((photo, i) => (
            <li key={photo.id} className="shrink-0">
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-current={i === index ? "true" : undefined}
                className={`block w-24 overflow-hidden rounded-lg ring-2 ${i === index ? "ring-accent" : "ring-transparent"}`}
              >
                <CarPicture
                  photo={photo}
                  alt={`Show photo ${i + 1}`}
                  layout="thumb"
                  className="aspect-[4/3] w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <dialog
        ref={dialog}
        aria-label={`Photos of the ${carTitle(car)}, full screen`}
        onKeyDown={onKeyDown}
        className="m-0 h-dvh max-h-none w-screen max-w-none bg-asphalt-950 p-0 backdrop:bg-black"
      >
        <div className="relative h-full">
          {stage(true)}
          <button type="button" onClick={() => dialog.current?.close()} className={`${button} absolute right-3 top-3`}>
            <X aria-hidden className="size-6" />
            <span className="sr-only">Close full screen</span>
          </button>
        </div>
      </dialog>
    </section>
  );
}

const DRIVETRAIN_LABELS: Record<string, string> = {
  fwd: "Front-wheel drive",
  rwd: "Rear-wheel drive",
  awd: "All-wheel drive",
  "4wd": "Four-wheel drive",
};
const GEARBOX_LABELS: Record<string, string> = {
  manual: "Manual",
  automatic: "Automatic",
  dct: "Dual-clutch",
  sequential: "Sequential",
  cvt: "CVT",
};

/** Specs the owner filled in; empty ones are left out. */
export function CarSpecs({ car }: { car: CommunityCar }) {
  const rows: [string, string][] = [
    ["Year", String(car.year)],
    ["Make", car.make],
    ["Model", car.model],
    ["Variant", car.variant],
    ["Colour", car.colour],
    ["Engine", car.engine],
    ["Power", car.powerBhp ? `${car.powerBhp} bhp` : ""],
    ["Drivetrain", car.drivetrain ? (DRIVETRAIN_LABELS[car.drivetrain] ?? car.drivetrain) : ""],
    ["Gearbox", car.gearbox ? (GEARBOX_LABELS[car.gearbox] ?? car.gearbox) : ""],
    ["Number plate", car.plate ?? ""],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-2xl border border-line bg-surface-raised p-5">
      {rows
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs font-bold uppercase tracking-[0.14em] text-muted">{label}</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** The owner's story as plain paragraphs: text, never HTML. */
export function CarStory({ story }: { story: string }) {
  const paragraphs = story
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  if (paragraphs.length === 0) return null;
  return (
    <div className="max-w-prose space-y-4 text-lg leading-relaxed">
      {paragraphs.map((paragraph, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity of their own.
        <p key={i} className="whitespace-pre-line">
          {paragraph}
        </p>
      ))}
    </div>
  );
}

/**
 * Like or unlike: a plain form that works without scripts, and answers at once with them (the
 * count moves before the server replies). Visitors are asked to sign in; owners see the count.
 */
export function LikeButton({
  carId,
  likeCount,
  likedByMe,
  can,
  signInHref,
  message,
}: {
  carId: string;
  likeCount: number;
  likedByMe: boolean;
  can: "like" | "sign-in" | "own";
  signInHref: string;
  message?: string;
}) {
  const fetcher = useFetcher<{ like?: { message?: string } }>();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const sent = fetcher.formData?.get("intent");
  const liked = sent === "like" ? true : sent === "unlike" ? false : likedByMe;
  const count = likeCount + (liked === likedByMe ? 0 : liked ? 1 : -1);
  const label = countOf(count, "like", "likes");
  const problem = fetcher.data?.like?.message ?? message;
  const pill =
    "inline-flex h-12 items-center gap-2 rounded-full px-5 font-bold ring-1 transition focus-visible:outline-2 focus-visible:outline-accent";
  if (can !== "like") {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <span className={`${pill} ring-line`}>
          <Heart aria-hidden className="size-5 text-muted" />
          <span className="tabular">{label}</span>
        </span>
        {can === "sign-in" ? (
          <Link to={signInHref} className="font-semibold text-link underline">
            Sign in to like this car
          </Link>
        ) : null}
      </div>
    );
  }
  return (
    <fetcher.Form method="post" action={`/community/cars/${carId}`} className="space-y-2">
      <input type="hidden" name="intent" value={liked ? "unlike" : "like"} />
      {hydrated ? <input type="hidden" name="reply" value="data" /> : null}
      <button
        type="submit"
        aria-pressed={liked}
        className={`${pill} ${liked ? "bg-accent text-on-accent ring-accent" : "ring-line hover:bg-surface-sunken"}`}
      >
        <Heart aria-hidden className={`size-5 ${liked ? "fill-current" : ""}`} />
        <span>{liked ? "Liked" : "Like"}</span>{" "}
        <span className="tabular">
          {count}
          <span className="sr-only"> {plural(count, "like", "likes")}</span>
        </span>
      </button>
      {problem ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

/** The page's address, copied to the clipboard; where the browser cannot, the address to copy by hand. */
export function ShareLink({ url }: { url: string }) {
  const [state, setState] = useState<"idle" | "copied" | "manual">("idle");
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state === "manual") field.current?.select();
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setState("copied");
    } catch {
      setState("manual");
    }
  };
  return (
    <div className="space-y-2">
      <button
        type="button"
        onClick={copy}
        className="inline-flex h-12 items-center gap-2 rounded-full px-5 font-bold ring-1 ring-line hover:bg-surface-sunken"
      >
        <Link2 aria-hidden className="size-5" /> Copy link
      </button>
      <p aria-live="polite" className="text-sm text-muted">
        {state === "copied" ? "Link copied." : ""}
      </p>
      <noscript>
        <p className="text-sm text-muted">Share this address: {url}</p>
      </noscript>
      {state === "manual" ? (
        <div>
          <label htmlFor="share-url" className="text-sm font-semibold">
            Copy this address
          </label>
          <input
            ref={field}
            id="share-url"
            readOnly
            value={url}
            className="mt-1 w-full rounded-lg border border-line bg-surface px-3 py-2"
          />
        </div>
      ) : null}
    </div>
  );
}

/** What the server answered a report with: field messages and what was sent, kept in the form. */
export type ReportReply = {
  error?: Record<string, string[] | null> | null;
  intendedValue?: Record<string, unknown> | null;
} | null;

const reportField =
  "block w-full rounded-xl border border-line bg-surface px-3.5 py-2.5 text-base text-text focus-visible:border-focus";

/**
 * A signed-in member reports the car or one of its photos. Works without scripts (a disclosure
 * and a form), checked on the server (ReportSchema): plain markup, so the car page ships no form
 * library to the visitors who never see this form.
 */
export function ReportForm({
  car,
  photos,
  lastResult,
  done,
}: {
  car: { year: number; make: string; model: string };
  photos: Photo[];
  lastResult?: ReportReply;
  done?: string;
}) {
  const errors = lastResult?.error ?? {};
  const sent = (name: string) => {
    const value = lastResult?.intendedValue?.[name];
    return typeof value === "string" ? value : "";
  };
  const open = Object.values(errors).some((list) => list?.length) || undefined;
  const describedBy = (name: string) => (errors[name]?.length ? `report-${name}-error` : undefined);
  return (
    <details open={open} className="rounded-2xl border border-line p-4">
      <summary className="inline-flex cursor-pointer items-center gap-2 font-semibold">
        <Flag aria-hidden className="size-4" /> Report this car or a photo
      </summary>
      {done ? (
        <p role="status" className="mt-3 text-sm">
          {done}
        </p>
      ) : null}
      <Form method="post" id="report-car" className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="report" />
        <PlainFieldErrors id="report-form-error" errors={errors[""]} />
        {photos.length > 0 ? (
          <div className="space-y-1.5">
            <label htmlFor="report-photo" className="block font-semibold">
              What are you reporting?
            </label>
            <select
              id="report-photo"
              name="photoId"
              defaultValue={sent("photoId")}
              aria-invalid={errors.photoId?.length ? true : undefined}
              aria-describedby={describedBy("photoId")}
              className={reportField}
            >
              <option value="">The whole {carTitle(car)}</option>
              {photos.map((photo, i) => (
                <option key={photo.id} value={photo.id}>
                  Photo {i + 1}
                </option>
              ))}
            </select>
            <PlainFieldErrors id="report-photoId-error" errors={errors.photoId} />
          </div>
        ) : null}
        <div className="space-y-1.5">
          <label htmlFor="report-reason" className="block font-semibold">
            Why?
          </label>
          <select
            id="report-reason"
            name="reason"
            required
            defaultValue={sent("reason")}
            aria-invalid={errors.reason?.length ? true : undefined}
            aria-describedby={describedBy("reason")}
            className={reportField}
          >
            <option value="">Choose a reason</option>
            {REPORT_REASON_LIST.map((reason) => (
              <option key={reason} value={reason}>
                {REPORT_REASON_LABELS[reason]}
              </option>
            ))}
          </select>
          <PlainFieldErrors id="report-reason-error" errors={errors.reason} />
        </div>
        <div className="space-y-1.5">
          <label htmlFor="report-note" className="block font-semibold">
            Anything the moderators should know? (optional)
          </label>
          <textarea
            id="report-note"
            name="note"
            rows={3}
            maxLength={MAX_REPORT_NOTE}
            defaultValue={sent("note")}
            aria-invalid={errors.note?.length ? true : undefined}
            aria-describedby={describedBy("note")}
            className={reportField}
          />
          <PlainFieldErrors id="report-note-error" errors={errors.note} />
        </div>
        <button
          type="submit"
          className="inline-flex h-11 items-center justify-center rounded-full bg-surface-sunken px-5 font-bold text-text hover:bg-line"
        >
          Send report
        </button>
      </Form>
    </details>
  );
}
