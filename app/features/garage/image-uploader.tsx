import { ImagePlus, RotateCw, X } from "lucide-react";
import { type DragEvent, useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { plural } from "~/ui/plural";
import { choiceNotice, sortChosenPhotos } from "./photo-choice";

/** The site's rule for uploads on flaky networks: retried with backoff from 1 s to 60 s, for up to 10 minutes. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;
const RETRY_WINDOW_MS = 10 * 60_000;

type Status = "waiting" | "uploading" | "done" | "failed";
type Item = { id: number; file: File; status: Status; progress: number; message: string; startedAt: number };
type Answer = { ok: boolean; status: number; message: string; retry: boolean };

export type ImageUploaderProps = {
  carId: string;
  /** Photos the car has now. */
  count: number;
  maxPhotos: number;
  maxBytes: number;
};

type Props = ImageUploaderProps & {
  /** Photos chosen in the plain form this uploader replaces: it sends them as it opens. */
  chosen?: readonly File[];
};

const queued = (id: number, file: File): Item => ({
  id,
  file,
  status: "waiting",
  progress: 0,
  message: "",
  startedAt: 0,
});

/**
 * Adds photos to a car: dropped or picked (several at once, the camera on a phone), each sent on
 * its own with a progress bar, retried on its own when the network drops. The size, type and
 * number are checked here for quick feedback; the server checks them again, by content.
 */
export default function ImageUploader({ carId, count, maxPhotos, maxBytes, chosen = [] }: Props) {
  const [opening] = useState(() => sortChosenPhotos(chosen, { room: maxPhotos - count, maxPhotos, maxBytes }));
  const [items, setItems] = useState(() => opening.accepted.map((file, index) => queued(index + 1, file)));
  const [over, setOver] = useState(false);
  const [notice, setNotice] = useState(() => choiceNotice(opening));
  const nextId = useRef(opening.accepted.length + 1);
  const busy = useRef(false);
  const input = useRef<HTMLInputElement>(null);
  const revalidator = useRevalidator();
  const update = (id: number, change: Partial<Item>) =>
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));

  const add = (files: FileList | File[]) => {
    const pending = items.filter((item) => item.status !== "failed" && item.status !== "done").length;
    const choice = sortChosenPhotos(files, { room: maxPhotos - count - pending, maxPhotos, maxBytes });
    const accepted = choice.accepted.map((file) => queued(nextId.current++, file));
    setItems((current) => [...current.filter((item) => item.status !== "done"), ...accepted]);
    setNotice(choiceNotice(choice));
  };

  // One upload at a time, in the order chosen, so photos keep that order on the car.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the queue changes.
  useEffect(() => {
    if (busy.current) return;
    const next = items.find((item) => item.status === "waiting");
    if (!next) return;
    busy.current = true;
    const startedAt = next.startedAt || Date.now();
    update(next.id, { status: "uploading", progress: 0, message: "", startedAt });
    sendWithRetries(next, startedAt).then((answer) => {
      busy.current = false;
      if (answer.ok) {
        update(next.id, { status: "done", progress: 100, message: "Added" });
        revalidator.revalidate();
      } else {
        update(next.id, { status: "failed", message: answer.message });
      }
    });
  }, [items]);

  async function sendWithRetries(item: Item, startedAt: number): Promise<Answer> {
    let wait = RETRY_FIRST_MS;
    for (;;) {
      const answer = await send(item);
      if (answer.ok || !answer.retry || Date.now() + wait - startedAt > RETRY_WINDOW_MS) return answer;
      update(item.id, { message: `Connection lost, trying again in ${Math.round(wait / 1000)} s…`, progress: 0 });
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, RETRY_MAX_MS);
    }
  }

  function send(item: Item): Promise<Answer> {
    return new Promise((resolve) => {
      const request = new XMLHttpRequest();
      request.open("POST", `/members/garage/${carId}/photos`);
      request.setRequestHeader("Accept", "application/json");
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) update(item.id, { progress: Math.round((event.loaded / event.total) * 100) });
      };
      request.onload = () => {
        const status = request.status;
        if (status >= 200 && status < 300) {
          const body = safeJson(request.responseText) as { outcomes?: { ok: boolean; message?: string }[] };
          const outcome = body?.outcomes?.[0];
          if (outcome && !outcome.ok)
            resolve({ ok: false, status, message: outcome.message ?? "Refused.", retry: false });
          else resolve({ ok: true, status, message: "", retry: false });
          return;
        }
        const body = safeJson(request.responseText) as { outcomes?: { message?: string }[] } | null;
        const message =
          body?.outcomes?.[0]?.message ??
          (status === 413
            ? "This photo is too large to send."
            : status === 429
              ? "Too many photos at once. Wait a few minutes and retry."
              : status === 404
                ? "This car is no longer in your garage."
                : "The photo could not be added.");
        resolve({ ok: false, status, message, retry: status >= 500 });
      };
      request.onerror = () => resolve({ ok: false, status: 0, message: "The connection dropped.", retry: true });
      const form = new FormData();
      form.append("photos", item.file, item.file.name);
      request.send(form);
    });
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (event.dataTransfer.files.length) add(event.dataTransfer.files);
  };
  const room = Math.max(0, maxPhotos - count);
  return (
    <div className="space-y-4">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the labelled file input inside does the same from the keyboard. */}
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={`rounded-2xl border-2 border-dashed p-6 text-center transition ${over ? "border-accent bg-accent/10" : "border-line"}`}
      >
        <ImagePlus aria-hidden className="mx-auto size-8 text-muted" />
        <p className="mt-2 font-semibold">Drop photos here, or</p>
        <label
          htmlFor={`uploader-${carId}`}
          className="mt-2 inline-flex cursor-pointer items-center gap-2 rounded-full bg-accent px-5 py-2.5 font-bold text-on-accent hover:bg-accent-strong focus-within:outline-2"
        >
          Choose photos
        </label>
        <input
          ref={input}
          id={`uploader-${carId}`}
          type="file"
          accept="image/*"
          multiple
          className="sr-only"
          onChange={(event) => {
            if (event.target.files?.length) add(event.target.files);
            event.target.value = "";
          }}
        />
        <p className="mt-2 text-sm text-muted">
          JPEG, PNG, WebP or HEIC, up to {Math.round(maxBytes / 1024 / 1024)} MB each. Room for {room} more{" "}
          {plural(room, "photo", "photos")}.
        </p>
      </div>
      <p aria-live="polite" className="text-sm font-medium">
        {notice}
      </p>
      {items.length > 0 ? (
        <ul className="space-y-2" aria-label="Uploads">
          {items.map((item) => (
            <li key={item.id} className="rounded-xl border border-line bg-surface-raised p-3">
              <div className="flex items-center justify-between gap-3">
                <span className="min-w-0 truncate text-sm font-semibold">{item.file.name}</span>
                <span className="text-sm text-muted" aria-live="polite">
                  {item.status === "uploading"
                    ? item.message || `${item.progress}%`
                    : item.status === "waiting"
                      ? "Waiting"
                      : item.status === "done"
                        ? "Added"
                        : "Failed"}
                </span>
              </div>
              <progress
                className="mt-2 h-2 w-full accent-[var(--color-accent)]"
                max={100}
                value={item.progress}
                aria-label={`Upload of ${item.file.name}`}
              />
              {item.status === "failed" ? (
                <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
                  <span role="alert" className="text-red-700 dark:text-red-300">
                    {item.message}
                  </span>
                  <button
                    type="button"
                    onClick={() => update(item.id, { status: "waiting", startedAt: 0, progress: 0 })}
                    className="inline-flex items-center gap-1 font-semibold text-link underline"
                  >
                    <RotateCw aria-hidden className="size-4" /> Retry {item.file.name}
                  </button>
                  <button
                    type="button"
                    onClick={() => setItems((current) => current.filter((other) => other.id !== item.id))}
                    className="inline-flex items-center gap-1 font-semibold text-muted underline"
                  >
                    <X aria-hidden className="size-4" /> Dismiss
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
