import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import { Form } from "react-router";
import { FieldErrors, FormErrors, SubmitButton } from "~/ui/form";
import { InputField } from "~/ui/form-fields";
import { usePicturePreview } from "~/ui/picture-preview";
import { useMediaBase } from "~/ui/site";
import { TrackArt } from "~/ui/track-art";
import { coverSources } from "../cover-urls";
import { COVER_ACCEPT, coverSchema } from "./schemas";

type Cover = { coverHash: string | null; coverAlt: string; coverColor: string | null };

/** The cover as tiles and the event page will crop it: 16:9, or the plain placeholder without one. */
function CoverPreview({ cover, preview }: { cover: Cover; preview: string | null }) {
  const mediaBase = useMediaBase();
  const frame = "aspect-video w-full overflow-hidden rounded-2xl border border-line";
  if (preview)
    return (
      <img src={preview} alt="The new cover, not saved yet" className={`${frame} object-cover ring-2 ring-accent`} />
    );
  if (!cover.coverHash)
    return (
      <div className={`${frame} dark-band relative grid place-items-center bg-asphalt-950 text-white`}>
        <TrackArt className="absolute inset-0 size-full" />
        <p className="relative rounded-full bg-black/50 px-4 py-2 text-sm font-semibold">No cover yet</p>
      </div>
    );
  const sources = coverSources(cover.coverHash, mediaBase);
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes="(min-width: 1024px) 640px, 100vw" />
      <source type="image/webp" srcSet={sources.webp} sizes="(min-width: 1024px) 640px, 100vw" />
      <img
        src={sources.src}
        width={sources.width}
        height={sources.height}
        alt={cover.coverAlt}
        fetchPriority="high"
        className={`${frame} h-auto object-cover`}
        style={{ backgroundColor: cover.coverColor ?? undefined }}
      />
    </picture>
  );
}

/**
 * The cover image and its description. The file is checked by its content on the server; here
 * the browser only previews what it can read.
 */
export function CoverEditor({
  cover,
  lastResult,
  removeResult,
  disabled,
}: {
  cover: Cover;
  lastResult?: SubmissionResult<string[]>;
  removeResult?: SubmissionResult<string[]>;
  disabled: boolean;
}) {
  const schema = useMemo(() => coverSchema({ hasCover: Boolean(cover.coverHash) }), [cover.coverHash]);
  const [form, fields] = useForm({
    id: "event-cover",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { coverAlt: cover.coverAlt },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const [removeForm] = useForm({ id: "remove-cover", lastResult: removeResult });
  // Once a new cover is saved, the page shows it and the picker starts empty again.
  const { preview, onChange } = usePicturePreview(cover.coverHash);
  const { key, ...fileProps } = getInputProps(fields.cover, {
    type: "file",
    ariaDescribedBy: `${fields.cover.id}-hint`,
  });

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)] lg:items-start">
      <div className="space-y-2">
        <CoverPreview cover={cover} preview={preview} />
        <p className="text-sm text-muted">
          Tiles and the event page show it at 16:9, cropped around what stands out; the phone list shows it smaller.
        </p>
      </div>
      <div className="space-y-5">
        <Form
          method="post"
          encType="multipart/form-data"
          {...getFormProps(form)}
          className="space-y-5 rounded-2xl border border-line bg-surface-raised p-5 sm:p-6"
        >
          <FormErrors id={form.errorId} errors={form.errors} />
          <fieldset disabled={disabled} className="min-w-0 space-y-5">
            <div className="space-y-1.5">
              <label htmlFor={fields.cover.id} className="block font-semibold">
                {cover.coverHash ? "Replace with another photo (optional)" : "Photo"}
              </label>
              <input
                key={`${key}-${cover.coverHash}`}
                {...fileProps}
                accept={COVER_ACCEPT}
                onChange={onChange}
                className="block w-full min-w-0 text-sm text-muted file:mr-3 file:rounded-full file:border-0 file:bg-surface-sunken file:px-4 file:py-2 file:font-semibold file:text-text hover:file:bg-line"
              />
              <p id={`${fields.cover.id}-hint`} className="text-sm text-muted">
                JPEG, PNG, WebP or HEIC, up to 15 MB and at least 640 pixels wide. Location data is removed.
              </p>
              <FieldErrors id={fields.cover.errorId} errors={fields.cover.errors} />
            </div>
            <InputField
              meta={fields.coverAlt}
              label="Describe the image"
              hint="For people who cannot see it, like “Rows of classic Minis on the banking at dusk”."
            />
            <SubmitButton name="intent" value="upload" pendingLabel="Saving… (large photos take a moment)">
              Save cover
            </SubmitButton>
          </fieldset>
        </Form>
        {cover.coverHash && !disabled ? (
          <Form method="post" {...getFormProps(removeForm)} className="space-y-3">
            <FormErrors id={removeForm.errorId} errors={removeForm.errors} />
            <SubmitButton name="intent" value="remove" variant="secondary" pendingLabel="Removing…" fit>
              Remove cover
            </SubmitButton>
          </Form>
        ) : null}
      </div>
    </div>
  );
}
