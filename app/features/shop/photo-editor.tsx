import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { Form } from "react-router";
import { Card } from "~/ui/card";
import { FormErrors, SubmitButton } from "~/ui/form";
import { FileField, InputField } from "~/ui/form-fields";
import type { ProductImage } from "../../../db/schema";
import { LIMITS } from "./limits";
import { ProductPicture } from "./product-picture";
import { addPhotoSchema, describePhotoSchema, PHOTO_ACCEPT } from "./schemas";

type Result = SubmissionResult<string[]>;

/** The answer to the photos page's last form: which form, which photo, and what it said. */
type PhotoReply = { intent: string; target: string | null; result: Result };

const iconButton =
  "inline-flex min-h-11 items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold ring-1 ring-line hover:bg-surface-sunken";

/** One photo: its picture, its description, and the buttons that move or remove it. */
function PhotoCard({
  image,
  index,
  count,
  reply,
}: {
  image: ProductImage;
  index: number;
  count: number;
  reply?: PhotoReply;
}) {
  const [form, fields] = useForm({
    id: `image-${image.hash}`,
    lastResult: reply?.intent === "describe" ? reply.result : undefined,
    constraint: getZodConstraint(describePhotoSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { alt: image.alt },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: describePhotoSchema }),
  });
  return (
    <Card as="li" className="grid grid-cols-[7rem_1fr] gap-4 p-4">
      <ProductPicture image={image} layout="thumb" className="aspect-[4/5] w-full rounded-lg" />
      <div className="min-w-0 space-y-3">
        <p className="text-sm font-bold">Photo {index + 1}</p>
        {reply && reply.intent !== "describe" ? (
          <FormErrors id={`image-${image.hash}-error`} errors={reply.result.error?.[""] ?? undefined} />
        ) : null}
        <Form method="post" {...getFormProps(form)} className="space-y-2">
          <input type="hidden" name="hash" value={image.hash} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <InputField meta={fields.alt} label="Description (alt text)" />
          <button type="submit" name="intent" value="describe" className={iconButton}>
            Save description
          </button>
        </Form>
        <Form method="post" className="flex flex-wrap gap-2">
          <input type="hidden" name="hash" value={image.hash} />
          {index > 0 ? (
            <button type="submit" name="intent" value="up" className={iconButton}>
              <ArrowUp aria-hidden className="size-4" /> Earlier
            </button>
          ) : null}
          {index < count - 1 ? (
            <button type="submit" name="intent" value="down" className={iconButton}>
              <ArrowDown aria-hidden className="size-4" /> Later
            </button>
          ) : null}
          <button type="submit" name="intent" value="remove" className={iconButton}>
            <Trash2 aria-hidden className="size-4" /> Remove
          </button>
        </Form>
      </div>
    </Card>
  );
}

function AddPhotoForm({ lastResult }: { lastResult?: Result }) {
  const [form, fields] = useForm({
    id: "add-image",
    lastResult,
    constraint: getZodConstraint(addPhotoSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addPhotoSchema }),
  });
  return (
    <Card as="section" aria-labelledby="add-photo" className="space-y-4 p-5">
      <h2 id="add-photo" className="text-lg font-extrabold">
        Add a photo
      </h2>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="add" />
        <FormErrors id={form.errorId} errors={form.errors} />
        <FileField
          meta={fields.image}
          label="Photo"
          accept={PHOTO_ACCEPT}
          hint="JPEG, PNG, WebP or HEIC, up to 15 MB, at least 480 × 600 pixels."
        />
        <InputField
          meta={fields.alt}
          label="Description (alt text)"
          hint="What the photo shows, for people who cannot see it: “Black T-shirt with a white crest”."
        />
        <SubmitButton fit intent="add" pendingLabel="Uploading…">
          Upload photo
        </SubmitButton>
      </Form>
    </Card>
  );
}

/**
 * A product's photos in the order its page shows them, each with its description, and the form
 * that adds one while there is room. Plain forms and buttons: it works before the page's script.
 */
export function PhotoEditor({ images, reply }: { images: ProductImage[]; reply?: PhotoReply }) {
  // A message about a photo no longer shown (or about no photo) goes above them all.
  const aboutShown = reply?.target && images.some((image) => image.hash === reply.target);
  const pageErrors = reply && reply.intent !== "add" && !aboutShown ? reply.result.error?.[""] : undefined;
  return (
    <>
      <FormErrors id="photos-error" errors={pageErrors ?? undefined} />
      {images.length > 0 ? (
        <ol className="grid gap-4 sm:grid-cols-2">
          {images.map((image, index) => (
            <PhotoCard
              key={image.hash}
              image={image}
              index={index}
              count={images.length}
              reply={reply?.target === image.hash ? reply : undefined}
            />
          ))}
        </ol>
      ) : (
        <Card variant="empty" className="p-8">
          <p className="font-semibold">No photos yet.</p>
        </Card>
      )}
      {images.length < LIMITS.photos ? (
        <AddPhotoForm key={images.length} lastResult={reply?.intent === "add" ? reply.result : undefined} />
      ) : null}
    </>
  );
}
