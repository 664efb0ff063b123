import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { Form } from "react-router";
import { getProductForAdmin } from "~/features/shop/admin.server";
import { FormProblem, type Reply, replyFor, TextInput } from "~/features/shop/admin-fields";
import { ProductEditorHeader } from "~/features/shop/admin-nav";
import { LIMITS } from "~/features/shop/limits";
import { ProductPicture } from "~/features/shop/product-picture";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { FieldErrors, SubmitButton } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/images";
import { idFrom, productImagesAction } from "./shop-forms.server";

// The one shop form that sends a file: server.ts lets bodies of up to 16 MB through to this path.
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const found = await getProductForAdmin(context.get(runtimeContext).db, productId, new Date());
  if (!found) notFound();
  const { id, slug, title, status, images } = found.product;
  return { product: { id, slug, title, status }, images };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const { db, storage } = context.get(runtimeContext);
  const ip = context.get(requestContext).ip;
  return productImagesAction(
    { db, storage, ip, actorId: user.id, productId, now: new Date() },
    await readForm(request),
    url.pathname,
  );
}

const iconButton =
  "inline-flex min-h-11 items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold ring-1 ring-line hover:bg-surface-sunken";

export default function ProductImages({ loaderData, actionData }: Route.ComponentProps) {
  const { product, images } = loaderData;
  const reply = actionData as Reply | undefined;
  const addReply = replyFor(reply, "add");
  return (
    <div className="mx-auto max-w-[1000px] space-y-8">
      <ProductEditorHeader product={product} />
      <p className="max-w-prose text-muted">
        Up to eight photos, in the order the product page shows them; the first is on the shop's tile. They are cropped
        to 4:5 around what matters, so a garment laid flat or a boxed model fills the frame.
      </p>
      {reply && reply.intent !== "add" && !reply.target ? <FormProblem reply={reply} /> : null}
      {images.length > 0 ? (
        <ol className="grid gap-4 sm:grid-cols-2">
          {images.map((image, index) => {
            const own = reply && reply.target === image.hash ? reply : undefined;
            return (
              <Card as="li" key={image.hash} className="grid grid-cols-[7rem_1fr] gap-4 p-4">
                <ProductPicture image={image} layout="thumb" className="aspect-[4/5] w-full rounded-lg" />
                <div className="min-w-0 space-y-3">
                  <p className="text-sm font-bold">Photo {index + 1}</p>
                  <FormProblem reply={own} />
                  <Form method="post" className="space-y-2" noValidate>
                    <input type="hidden" name="hash" value={image.hash} />
                    <TextInput
                      form={`image-${image.hash}`}
                      name="alt"
                      label="Description (alt text)"
                      value={image.alt}
                      reply={own?.intent === "describe" ? own : undefined}
                      maxLength={LIMITS.alt}
                      required
                    />
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
                    {index < images.length - 1 ? (
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
          })}
        </ol>
      ) : (
        <Card variant="empty" className="p-8">
          <p className="font-semibold">No photos yet.</p>
        </Card>
      )}
      {images.length < 8 ? (
        <Card as="section" aria-labelledby="add-photo" className="space-y-4 p-5">
          <h2 id="add-photo" className="text-lg font-extrabold">
            Add a photo
          </h2>
          <FormProblem reply={addReply} />
          <Form method="post" encType="multipart/form-data" className="space-y-4" noValidate>
            <input type="hidden" name="intent" value="add" />
            <div className="space-y-1.5">
              <label htmlFor="product-image" className="block text-sm font-semibold">
                Photo
              </label>
              <input
                id="product-image"
                name="image"
                type="file"
                accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
                required
                aria-invalid={addReply?.errors.image ? true : undefined}
                aria-describedby={`product-image-hint${addReply?.errors.image ? " product-image-error" : ""}`}
                className="block w-full text-sm file:mr-3 file:rounded-full file:border-0 file:bg-surface-sunken file:px-4 file:py-2 file:font-semibold"
              />
              <p id="product-image-hint" className="text-sm text-muted">
                JPEG, PNG, WebP or HEIC, up to 15 MB, at least 480 × 600 pixels.
              </p>
              <FieldErrors
                id="product-image-error"
                errors={addReply?.errors.image ? [addReply.errors.image] : undefined}
              />
            </div>
            <TextInput
              form="add-image"
              name="alt"
              label="Description (alt text)"
              value=""
              reply={addReply}
              maxLength={LIMITS.alt}
              hint="What the photo shows, for people who cannot see it: “Black T-shirt with a white crest”."
              required
            />
            <SubmitButton fit intent="add" pendingLabel="Uploading…">
              Upload photo
            </SubmitButton>
          </Form>
        </Card>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  return [
    { title: pageTitle(matches, "Photos", data?.product.title ?? "Product", "Shop", "Dashboard") },
    { name: "robots", content: "noindex" },
  ];
};
