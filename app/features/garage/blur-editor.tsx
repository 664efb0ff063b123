import { type PointerEvent, useRef, useState } from "react";
import { Form } from "react-router";
import { CarPicture } from "~/features/media/car-picture";
import { inputClass } from "~/ui/form";
import type { GaragePhoto } from "./cars.server";
import { PLATE_PRESET } from "./schemas";

type Area = { left: number; top: number; width: number; height: number };

const round = (value: number) => Math.round(value * 10) / 10;
const clamp = (value: number) => Math.min(100, Math.max(0, value));
const percentOf = (region: { x: number; y: number; w: number; h: number }): Area => ({
  left: round(region.x * 100),
  top: round(region.y * 100),
  width: round(region.w * 100),
  height: round(region.h * 100),
});

/**
 * Marks areas of a photo to blur before it is published: drag a rectangle over the photo, or
 * type its position in per cent, or use the number-plate preset. Each area is applied to every
 * stored size of the photo on the server; the list below removes one again.
 */
export function BlurEditor({ photo, label }: { photo: GaragePhoto; label: string }) {
  const [area, setArea] = useState<Area>(percentOf(PLATE_PRESET));
  const [draft, setDraft] = useState<Area | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const idBase = `blur-${photo.id}`;

  const pointAt = (event: PointerEvent) => {
    const box = frame.current!.getBoundingClientRect();
    return {
      x: clamp(((event.clientX - box.left) / box.width) * 100),
      y: clamp(((event.clientY - box.top) / box.height) * 100),
    };
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    start.current = pointAt(event);
    setDraft({ left: start.current.x, top: start.current.y, width: 0, height: 0 });
  };
  const onPointerMove = (event: PointerEvent) => {
    if (!start.current) return;
    const point = pointAt(event);
    setDraft({
      left: Math.min(start.current.x, point.x),
      top: Math.min(start.current.y, point.y),
      width: Math.abs(point.x - start.current.x),
      height: Math.abs(point.y - start.current.y),
    });
  };
  const onPointerUp = () => {
    if (draft && draft.width >= 1 && draft.height >= 1) {
      setArea({
        left: round(draft.left),
        top: round(draft.top),
        width: round(draft.width),
        height: round(draft.height),
      });
    }
    start.current = null;
  };
  const marked = draft ?? area;
  return (
    <details className="rounded-xl bg-surface-sunken p-3">
      <summary className="cursor-pointer text-sm font-semibold">Blur areas of {label} (number plates, faces)</summary>
      <div className="mt-3 space-y-4">
        <p className="text-sm text-muted">
          Drag over the photo to mark an area, or type where it is, then choose “Blur this area”. The blur is applied to
          every size of the photo before anyone sees it.
        </p>
        <div
          ref={frame}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          className="relative max-w-xl touch-none select-none overflow-hidden rounded-lg"
        >
          <CarPicture photo={photo} layout="tile" alt="" className="pointer-events-none w-full" />
          {photo.blur.map((region, index) => {
            const box = percentOf(region);
            return (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: areas have no id; their place in the list names them.
                key={index}
                aria-hidden
                className="absolute border-2 border-dashed border-white/80"
                style={{ left: `${box.left}%`, top: `${box.top}%`, width: `${box.width}%`, height: `${box.height}%` }}
              />
            );
          })}
          <span
            aria-hidden
            data-testid="blur-marker"
            className="absolute border-2 border-accent bg-accent/20"
            style={{
              left: `${marked.left}%`,
              top: `${marked.top}%`,
              width: `${marked.width}%`,
              height: `${marked.height}%`,
            }}
          />
        </div>
        <Form method="post" className="grid grid-cols-2 gap-3 sm:grid-cols-4" key={JSON.stringify(area)}>
          <input type="hidden" name="intent" value="blur-add" />
          <input type="hidden" name="photoId" value={photo.id} />
          {(
            [
              ["left", "From the left (%)"],
              ["top", "From the top (%)"],
              ["width", "Width (%)"],
              ["height", "Height (%)"],
            ] as const
          ).map(([name, text]) => (
            <div key={name}>
              <label htmlFor={`${idBase}-${name}`} className="block text-sm font-semibold">
                {text}
              </label>
              <input
                id={`${idBase}-${name}`}
                name={name}
                type="number"
                inputMode="decimal"
                min={0}
                max={100}
                step={0.1}
                required
                defaultValue={area[name]}
                onChange={(event) => {
                  const value = Number(event.target.value);
                  if (Number.isFinite(value)) setArea((current) => ({ ...current, [name]: clamp(value) }));
                  setDraft(null);
                }}
                className={inputClass(false)}
              />
            </div>
          ))}
          <div className="col-span-2 flex flex-wrap gap-2 sm:col-span-4">
            <button
              type="submit"
              className="rounded-full bg-accent px-4 py-2 text-sm font-bold text-on-accent hover:bg-accent-strong"
            >
              Blur this area
            </button>
            <button
              type="button"
              onClick={() => {
                setArea(percentOf(PLATE_PRESET));
                setDraft(null);
              }}
              className="rounded-full bg-surface px-4 py-2 text-sm font-semibold ring-1 ring-line"
            >
              Use the number-plate area
            </button>
          </div>
        </Form>
        {photo.blur.length > 0 ? (
          <div>
            <h4 className="text-sm font-semibold">Blurred areas</h4>
            <ul className="mt-2 space-y-2">
              {photo.blur.map((region, index) => {
                const box = percentOf(region);
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: areas have no id; their place in the list names them.
                  <li key={index} className="flex flex-wrap items-center gap-3 text-sm">
                    <span>
                      Area {index + 1}: {box.left}% from the left, {box.top}% from the top, {box.width}% × {box.height}%
                    </span>
                    <Form method="post">
                      <input type="hidden" name="intent" value="blur-remove" />
                      <input type="hidden" name="photoId" value={photo.id} />
                      <input type="hidden" name="index" value={index} />
                      <button type="submit" className="font-semibold text-link underline">
                        Remove area {index + 1}
                      </button>
                    </Form>
                  </li>
                );
              })}
            </ul>
          </div>
        ) : null}
      </div>
    </details>
  );
}
