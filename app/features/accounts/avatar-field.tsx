import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { FieldErrors } from "~/ui/form";
import { usePicturePreview } from "~/ui/picture-preview";
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
  const { preview, onChange } = usePicturePreview(image);
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
          onChange={onChange}
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
