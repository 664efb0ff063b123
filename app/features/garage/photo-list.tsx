import { ArrowDown, ArrowUp, GripVertical, Star, Trash2 } from "lucide-react";
import { type DragEvent, useEffect, useState } from "react";
import { Form, useFetcher } from "react-router";
import { CarPicture } from "~/features/media/car-picture";
import { Badge } from "~/ui/badge";
import { inputClass } from "~/ui/form";
import { countOf } from "~/ui/plural";
import { BlurEditor } from "./blur-editor";
import type { GaragePhoto } from "./cars.server";
import { CAR_LIMITS } from "./schemas";

const smallButton =
  "inline-flex items-center gap-1.5 rounded-full bg-surface-sunken px-3 py-1.5 text-sm font-semibold hover:bg-line disabled:opacity-50";

/**
 * A car's photos in the order its page shows them. Every change is a plain form (moving one
 * place, cover, description, remove), so it all works from the keyboard and without
 * JavaScript; with it, a photo can also be dragged to a new place.
 */
export function PhotoList({
  photos,
  coverPhotoId,
  carName,
}: {
  photos: GaragePhoto[];
  coverPhotoId: string | null;
  carName: string;
}) {
  const fetcher = useFetcher();
  const [order, setOrder] = useState(photos.map((photo) => photo.id));
  const [dragging, setDragging] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => setOrder(photos.map((photo) => photo.id)), [photos]);
  const byId = new Map(photos.map((photo) => [photo.id, photo]));
  const shown = order.map((id) => byId.get(id)).filter((photo): photo is GaragePhoto => Boolean(photo));

  const drop = (event: DragEvent, targetId: string) => {
    event.preventDefault();
    if (!dragging || dragging === targetId) return;
    const next = order.filter((id) => id !== dragging);
    next.splice(next.indexOf(targetId) + (order.indexOf(dragging) < order.indexOf(targetId) ? 1 : 0), 0, dragging);
    setOrder(next);
    setDragging(null);
    setAnnouncement(`Photo moved to place ${next.indexOf(dragging) + 1} of ${next.length}.`);
    fetcher.submit({ intent: "order", order: next.join(",") }, { method: "post" });
  };

  if (photos.length === 0) {
    return <p className="text-muted">No photos yet. Add a few: the first (or the one you choose) is the cover.</p>;
  }
  return (
    <>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <ol className="space-y-4" aria-label={`Photos of ${carName}, in order`}>
        {shown.map((photo, index) => {
          const isCover = coverPhotoId === photo.id;
          const label = photo.alt || `Photo ${index + 1}`;
          return (
            <li
              key={photo.id}
              id={`photo-${photo.id}`}
              draggable
              onDragStart={() => setDragging(photo.id)}
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => drop(event, photo.id)}
              data-photo-id={photo.id}
              className={`rounded-2xl border border-line bg-surface-raised p-4 ${dragging === photo.id ? "opacity-60" : ""}`}
            >
              <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:gap-4">
                <GripVertical aria-hidden className="mt-1 hidden size-5 shrink-0 cursor-grab text-muted sm:block" />
                <div className="w-40 shrink-0 overflow-hidden rounded-xl">
                  <CarPicture
                    photo={photo}
                    layout="thumb"
                    alt={photo.alt || `${carName}, photo ${index + 1}`}
                    className="aspect-[4/3] w-full object-cover"
                  />
                </div>
                <div className="min-w-0 flex-1 space-y-3">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold">
                      {index + 1} of {shown.length}
                    </span>
                    {isCover ? <Badge tone="accent">Cover</Badge> : null}
                    {photo.blur.length > 0 ? (
                      <Badge tone="neutral">{countOf(photo.blur.length, "blurred area", "blurred areas")}</Badge>
                    ) : null}
                    {photo.hidden ? <Badge tone="danger">Hidden by a moderator</Badge> : null}
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <PhotoButton
                      intent="move"
                      photoId={photo.id}
                      extra={{ direction: "up" }}
                      disabled={index === 0}
                      label={`Move earlier: ${label}`}
                    >
                      <ArrowUp aria-hidden className="size-4" /> Move earlier
                    </PhotoButton>
                    <PhotoButton
                      intent="move"
                      photoId={photo.id}
                      extra={{ direction: "down" }}
                      disabled={index === shown.length - 1}
                      label={`Move later: ${label}`}
                    >
                      <ArrowDown aria-hidden className="size-4" /> Move later
                    </PhotoButton>
                    {isCover ? null : (
                      <PhotoButton intent="cover" photoId={photo.id} label={`Make cover: ${label}`}>
                        <Star aria-hidden className="size-4" /> Make cover
                      </PhotoButton>
                    )}
                    <PhotoButton intent="remove" photoId={photo.id} label={`Remove: ${label}`}>
                      <Trash2 aria-hidden className="size-4" /> Remove
                    </PhotoButton>
                  </div>
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="intent" value="alt" />
                    <input type="hidden" name="photoId" value={photo.id} />
                    <div className="min-w-0 flex-1 basis-full sm:basis-48">
                      <label htmlFor={`alt-${photo.id}`} className="block text-sm font-semibold">
                        Description of photo {index + 1} (for people who cannot see it)
                      </label>
                      <input
                        id={`alt-${photo.id}`}
                        name="alt"
                        defaultValue={photo.alt}
                        maxLength={CAR_LIMITS.alt}
                        placeholder="Front three-quarter view at dusk"
                        className={inputClass(false)}
                      />
                    </div>
                    <button type="submit" className={smallButton}>
                      Save description
                    </button>
                  </Form>
                  <BlurEditor photo={photo} label={`photo ${index + 1}`} />
                </div>
              </div>
            </li>
          );
        })}
      </ol>
    </>
  );
}

function PhotoButton({
  intent,
  photoId,
  extra = {},
  disabled,
  label,
  children,
}: {
  intent: string;
  photoId: string;
  extra?: Record<string, string>;
  disabled?: boolean;
  /** The button's name for screen readers: its visible words and which photo. */
  label: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="photoId" value={photoId} />
      {Object.entries(extra).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" disabled={disabled} aria-label={label} className={smallButton}>
        {children}
      </button>
    </Form>
  );
}
