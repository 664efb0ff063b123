import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { Form } from "react-router";
import { coverSources } from "~/features/events/cover-urls";
import { FormErrors, SubmitButton } from "~/ui/form";
import { FileField, InputField } from "~/ui/form-fields";
import { useMediaBase } from "~/ui/site";
import type { DrawImage } from "../../../../db/schema/draws";
import { AddImageSchema, DRAW_LIMITS, IMAGE_ACCEPT, ImageAltSchema } from "./schemas";

type Result = SubmissionResult<string[]>;

const iconButton =
  "inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold ring-1 ring-line hover:bg-surface-sunken";

/** One photo: its picture, its description, and (for a draft) move and remove buttons. */
function GalleryItem({
  image,
  index,
  count,
  draft,
  disabled,
  lastResult,
}: {
  image: DrawImage;
  index: number;
  count: number;
  draft: boolean;
  disabled: boolean;
  lastResult?: Result;
}) {
  const [form, fields] = useForm({
    id: `image-${image.hash}`,
    lastResult,
    constraint: getZodConstraint(ImageAltSchema),
    shouldValidate: "onBlur",
    defaultValue: { alt: image.alt, hash: image.hash },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ImageAltSchema }),
  });
  const sources = coverSources(image.hash, useMediaBase());
  const position = `Photo ${index + 1} of ${count}`;
  return (
    <li className="grid gap-4 rounded-2xl border border-line bg-surface-raised p-4 sm:grid-cols-[14rem_minmax(0,1fr)]">
      <img
        src={sources.src}
        srcSet={sources.webp}
        sizes="14rem"
        width={sources.width}
        height={sources.height}
        alt={image.alt}
        loading="lazy"
        className="aspect-video h-auto w-full rounded-xl object-cover"
        style={{ backgroundColor: image.color }}
      />
      <div className="space-y-3">
        <p className="text-sm font-bold">
          {position}
          {index === 0 ? <span className="text-muted"> · on the draw's tile</span> : null}
        </p>
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="hash" value={image.hash} />
          <InputField meta={fields.alt} label={`Description of photo ${index + 1}`} inputProps={{ disabled }} />
          {disabled ? null : (
            <SubmitButton name="intent" value="describe" variant="secondary" pendingLabel="Saving…" fit>
              Save description
            </SubmitButton>
          )}
        </Form>
        {draft && !disabled ? (
          <Form method="post" className="flex flex-wrap gap-2">
            <input type="hidden" name="hash" value={image.hash} />
            {index > 0 ? (
              <button type="submit" name="intent" value="up" className={iconButton}>
                <ArrowUp aria-hidden className="size-4" /> Move up<span className="sr-only"> photo {index + 1}</span>
              </button>
            ) : null}
            {index < count - 1 ? (
              <button type="submit" name="intent" value="down" className={iconButton}>
                <ArrowDown aria-hidden className="size-4" /> Move down
                <span className="sr-only"> photo {index + 1}</span>
              </button>
            ) : null}
            <button
              type="submit"
              name="intent"
              value="remove"
              className={`${iconButton} text-red-700 dark:text-red-300`}
            >
              <Trash2 aria-hidden className="size-4" /> Remove<span className="sr-only"> photo {index + 1}</span>
            </button>
          </Form>
        ) : null}
      </div>
    </li>
  );
}

function AddImageForm({ lastResult }: { lastResult?: Result }) {
  const [form, fields] = useForm({
    id: "add-image",
    lastResult,
    constraint: getZodConstraint(AddImageSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AddImageSchema }),
  });
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="space-y-5 rounded-2xl border border-line bg-surface-raised p-5 sm:p-6"
    >
      <h3 className="wide text-lg font-extrabold">Add a photo</h3>
      <FormErrors id={form.errorId} errors={form.errors} />
      <FileField
        meta={fields.image}
        label="Photo"
        accept={IMAGE_ACCEPT}
        hint="JPEG, PNG, WebP or HEIC, up to 15 MB and at least 640 pixels wide. Shown at 16:9; location data is removed."
      />
      <InputField
        meta={fields.alt}
        label="Describe the photo"
        hint="For people who cannot see it, like “The red 911 from the front, on a wet track”."
      />
      <SubmitButton name="intent" value="add" pendingLabel="Adding… (large photos take a moment)" fit>
        Add photo
      </SubmitButton>
    </Form>
  );
}

/**
 * The prize gallery: up to eight photos, the first on the draw's tile. Plain forms and buttons,
 * so it works before (or without) the page's script.
 */
export function DrawGalleryEditor({
  images,
  status,
  results,
}: {
  images: DrawImage[];
  status: string;
  results: { intent: string; hash?: string | null; result?: Result } | undefined;
}) {
  const draft = status === "draft";
  const disabled = status === "drawn" || status === "cancelled";
  const resultFor = (hash: string) => (results?.hash === hash ? results.result : undefined);
  return (
    <div className="space-y-6">
      {results && !results.hash && results.intent !== "add" ? (
        <FormErrors id="gallery-errors" errors={results.result?.error?.[""] ?? undefined} />
      ) : null}
      {images.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line p-8 text-center text-muted">
          No photos yet: add the first one below. It becomes the draw's tile.
        </p>
      ) : (
        <ol className="space-y-4" aria-label="Prize photos">
          {images.map((image, index) => (
            <GalleryItem
              key={image.hash}
              image={image}
              index={index}
              count={images.length}
              draft={draft}
              disabled={disabled}
              lastResult={resultFor(image.hash)}
            />
          ))}
        </ol>
      )}
      {draft && images.length < DRAW_LIMITS.images ? (
        <AddImageForm lastResult={results?.intent === "add" ? results.result : undefined} />
      ) : draft ? (
        <p className="text-sm text-muted">
          The gallery is full ({DRAW_LIMITS.images} photos): remove one to add another.
        </p>
      ) : (
        <p className="text-sm text-muted">
          Once a draw is published its photos stay as they are; their descriptions can still be corrected.
        </p>
      )}
    </div>
  );
}
