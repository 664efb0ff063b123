import { lazy, Suspense, useEffect, useState } from "react";
import type { ImageUploaderProps } from "./image-uploader";

// The uploader is its own chunk, loaded only on the garage pages once they are interactive.
const ImageUploader = lazy(() => import("./image-uploader"));

/**
 * Adding photos to a car. The page arrives with a plain multi-file form that works without
 * JavaScript; once scripts run, the uploader (drop zone, progress, retry) takes its place.
 */
export function PhotoUploads(props: ImageUploaderProps) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const full = props.count >= props.maxPhotos;
  if (full) {
    return (
      <p className="text-muted">
        This car has {props.maxPhotos} photos, the most it can have. Remove one to add another.
      </p>
    );
  }
  const plain = <PlainUploadForm {...props} />;
  if (!hydrated) return plain;
  return (
    <Suspense fallback={plain}>
      <ImageUploader {...props} />
    </Suspense>
  );
}

function PlainUploadForm({ carId, maxBytes, maxPhotos, count }: ImageUploaderProps) {
  return (
    <form
      method="post"
      action={`/members/garage/${carId}/photos`}
      encType="multipart/form-data"
      className="space-y-3 rounded-2xl border-2 border-dashed border-line p-6"
    >
      <label htmlFor={`photos-${carId}`} className="block font-semibold">
        Add photos
      </label>
      <input
        id={`photos-${carId}`}
        name="photos"
        type="file"
        accept="image/*"
        multiple
        required
        aria-describedby={`photos-${carId}-hint`}
      />
      <p id={`photos-${carId}-hint`} className="text-sm text-muted">
        JPEG, PNG, WebP or HEIC, up to {Math.round(maxBytes / 1024 / 1024)} MB each and {maxPhotos - count} more.
        Several at once as long as they add up to less than 16 MB; send bigger photos one at a time.
      </p>
      <button
        type="submit"
        className="rounded-full bg-accent px-5 py-2.5 font-bold text-on-accent hover:bg-accent-strong"
      >
        Upload photos
      </button>
    </form>
  );
}
