import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { FieldErrors } from "~/ui/form";
import { Avatar } from "./avatar";

/** What the avatar input accepts; the server checks the content, not this list. */
const AVATAR_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif";

/**
 * The profile photo input: the current photo (or initials), a file picker, and a preview of the
 * chosen photo before it is sent.
 */
export function AvatarField({
  meta,
  image,
  name,
}: {
  meta: FieldMetadata<File | undefined>;
  image: string | null;
  name: string;
}) {
  const [preview, setPreview] = useState<string | null>(null);
  const chosen = useRef<File | undefined>(undefined);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  // Once a new photo is saved, the page shows it and the picker starts empty again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset is the effect of the saved photo changing
  useEffect(() => setPreview(null), [image]);
  const { key, ...props } = getInputProps(meta, { type: "file", ariaDescribedBy: `${meta.id}-hint` });
  return (
    <div className="space-y-1.5">
      <label htmlFor={meta.id} className="block font-semibold">
        Profile photo (optional)
      </label>
      <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        {preview ? (
          <img
            src={preview}
            alt="Your new avatar, not saved yet"
            width={96}
            height={96}
            className="size-24 shrink-0 rounded-full object-cover ring-2 ring-accent"
          />
        ) : (
          <Avatar image={image} name={name} size="lg" alt={image ? "Your current avatar" : ""} />
        )}
        <input
          key={`${key}-${image}`}
          {...props}
          accept={AVATAR_ACCEPT}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            chosen.current = file;
            setPreview(null);
            // Only a photo the browser can read gets a preview (not HEIC, not a broken file).
            if (file?.type.startsWith("image/")) {
              createImageBitmap(file).then(
                (bitmap) => {
                  bitmap.close();
                  if (chosen.current === file) setPreview(URL.createObjectURL(file));
                },
                () => {},
              );
            }
          }}
          className="block w-full min-w-0 text-sm text-muted file:mr-3 file:rounded-full file:border-0 file:bg-surface-sunken file:px-4 file:py-2 file:font-semibold file:text-text hover:file:bg-line"
        />
      </div>
      <p id={`${meta.id}-hint`} className="text-sm text-muted">
        JPEG, PNG, WebP or HEIC, up to 5 MB. It is cropped to a square, and its location data is removed.
      </p>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
