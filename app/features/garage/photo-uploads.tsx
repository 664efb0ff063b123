import { type FormEvent, type RefObject, useEffect, useRef, useState } from "react";
import type ImageUploader from "./image-uploader";
import type { ImageUploaderProps } from "./image-uploader";

type Enhanced = {
  Uploader: typeof ImageUploader;
  /** Photos the plain form handed over when it was sent, for the uploader to send. */
  chosen: File[];
  /**
   * Photos chosen in the plain form before the uploader was in keep the form on screen: it may be
   * sending them already (a submit before the page's scripts ran leaves no trace), and the
   * uploader sending them too would add them twice.
   */
  plainHoldsPhotos: boolean;
};

/**
 * Adding photos to a car. The page arrives with a plain multi-file form that works without
 * JavaScript; once scripts run, the uploader (drop zone, progress, retry) takes its place, or,
 * when photos were already chosen in the form, takes them over as the form is sent.
 */
export function PhotoUploads(props: ImageUploaderProps) {
  const plainInput = useRef<HTMLInputElement>(null);
  const [enhanced, setEnhanced] = useState<Enhanced>();
  useEffect(() => {
    let mounted = true;
    // The uploader is its own chunk, loaded once the page is interactive. Until it is in, the
    // plain form is the very one the server sent, so nothing chosen in it is lost.
    import("./image-uploader").then(
      ({ default: Uploader }) => {
        const plainHoldsPhotos = Boolean(plainInput.current?.files?.length);
        if (mounted) setEnhanced({ Uploader, chosen: [], plainHoldsPhotos });
      },
      // Without the uploader the plain form still does the job.
      () => {},
    );
    return () => {
      mounted = false;
    };
  }, []);

  // Sent once the uploader is in, the plain form's photos go up through it instead: each with its
  // progress, retried on its own, without leaving the page.
  const handOver = (event: FormEvent<HTMLFormElement>) => {
    if (!enhanced) return;
    event.preventDefault();
    setEnhanced({ ...enhanced, chosen: [...(plainInput.current?.files ?? [])], plainHoldsPhotos: false });
  };

  const full = props.count >= props.maxPhotos;
  // The uploader took the handed-over photos when it opened; opened again, after the car was
  // full, it starts empty rather than send them twice.
  if (full && enhanced?.chosen.length) setEnhanced({ ...enhanced, chosen: [] });
  if (full) {
    return (
      <p className="text-muted">
        This car has {props.maxPhotos} photos, the most it can have. Remove one to add another.
      </p>
    );
  }
  if (!enhanced || enhanced.plainHoldsPhotos) {
    return <PlainUploadForm {...props} fileInput={plainInput} onSubmit={handOver} />;
  }
  return <enhanced.Uploader {...props} chosen={enhanced.chosen} />;
}

function PlainUploadForm({
  carId,
  maxBytes,
  maxPhotos,
  count,
  fileInput,
  onSubmit,
}: ImageUploaderProps & {
  fileInput: RefObject<HTMLInputElement | null>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form
      onSubmit={onSubmit}
      method="post"
      action={`/members/garage/${carId}/photos`}
      encType="multipart/form-data"
      className="space-y-3 rounded-2xl border-2 border-dashed border-line p-6"
    >
      <label htmlFor={`photos-${carId}`} className="block font-semibold">
        Add photos
      </label>
      <input
        ref={fileInput}
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
