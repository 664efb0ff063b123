import { Clock, Trophy } from "lucide-react";
import { Link } from "react-router";
import { CoverPicture } from "~/features/events/cover-picture";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { formatMoney } from "~/ui/money";
import { countOf } from "~/ui/plural";
import { useSite } from "~/ui/site";
import type { DrawImage } from "../../../db/schema";
import type { DrawTile } from "./catalogue.server";

/**
 * The list of draws: tiles with the prize photo, price per entry, % sold and the time left. Kept
 * apart from the draw page's parts, so /giveaways ships only these.
 */

/** "Closes in 3 days", "Closes in 5 hours", from the server's clock at render time. */
export function timeLeft(closesAt: string, now: number) {
  const ms = Date.parse(closesAt) - now;
  if (ms <= 0) return "Closed";
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (days >= 2) return `Closes in ${days} days`;
  if (hours >= 2) return `Closes in ${hours} hours`;
  return `Closes in ${countOf(Math.max(1, minutes), "minute", "minutes")}`;
}

export function imageCover(image: DrawImage | null) {
  return { hash: image?.hash ?? null, color: image?.color ?? null, alt: image?.alt ?? "" };
}

export function SoldBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2.5 overflow-hidden rounded-full bg-surface-sunken ring-1 ring-line"
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${percent}%` }} />
      </div>
      <p className="tabular text-sm font-semibold text-muted">{percent}% sold</p>
    </div>
  );
}

/** One draw in the list. */
function DrawTileCard({ tile, now, priority }: { tile: DrawTile; now: number; priority: boolean }) {
  const { currency } = useSite();
  const live = tile.phase !== "closed";
  return (
    <Card as="li" className="group relative flex flex-col overflow-hidden">
      <div className="relative aspect-video overflow-hidden bg-asphalt-900">
        <CoverPicture
          cover={imageCover(tile.image)}
          sizes="(min-width: 1200px) 373px, (min-width: 640px) 50vw, 100vw"
          priority={priority}
          className="size-full"
        />
        <div className="absolute top-3 left-3 flex gap-2">
          {tile.kind === "giveaway" ? <Badge tone="solid-light">Free giveaway</Badge> : null}
          {tile.status === "drawn" ? <Badge tone="solid-dark">Drawn</Badge> : null}
          {tile.phase === "upcoming" ? <Badge tone="solid-dark">Opens soon</Badge> : null}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <h3 className="text-lg font-bold leading-snug">
          <Link to={`/giveaways/${tile.slug}`} className="after:absolute after:inset-0 hover:underline">
            {tile.title}
          </Link>
        </h3>
        <p className="text-sm text-muted">Prize worth {formatMoney(tile.prizeValue, currency, { compact: true })}</p>
        {live ? (
          <>
            <SoldBar percent={tile.percentSold} label={`${tile.title}: entries sold`} />
            <div className="mt-auto flex items-center justify-between gap-3 pt-2">
              <p className="wide text-xl font-black">
                {tile.price === 0 ? "Free" : `${formatMoney(tile.price, currency)}`}
                {tile.price === 0 ? null : <span className="text-sm font-semibold text-muted"> per entry</span>}
              </p>
              <p className="flex items-center gap-1.5 text-sm font-semibold text-accent-ink">
                <Clock aria-hidden className="size-4" />
                <time dateTime={tile.closesAt}>{timeLeft(tile.closesAt, now)}</time>
              </p>
            </div>
          </>
        ) : (
          <p className="mt-auto flex items-center gap-2 font-semibold">
            <Trophy aria-hidden className="size-4 text-accent-ink" />
            {tile.status === "drawn"
              ? tile.winner
                ? `Won by ${tile.winner} (entry ${tile.winnerNumber})`
                : "Drawn: no eligible entries"
              : "Closed: the draw is coming"}
          </p>
        )}
      </div>
    </Card>
  );
}

export function DrawTiles({
  tiles,
  now,
  firstPriority = false,
}: {
  tiles: DrawTile[];
  now: number;
  firstPriority?: boolean;
}) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {tiles.map((tile, index) => (
        <DrawTileCard key={tile.slug} tile={tile} now={now} priority={firstPriority && index === 0} />
      ))}
    </ul>
  );
}
