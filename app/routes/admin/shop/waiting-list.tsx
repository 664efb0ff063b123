import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { getProductForAdmin, productHeader } from "~/features/shop/admin.server";
import { ProductEditorHeader } from "~/features/shop/product-header";
import { MERCH_OFFER_HOURS } from "~/features/waiting-lists/offers.server";
import { ProductWaitingListPanel } from "~/features/waiting-lists/organizer-list";
import { MoveSchema, ProductListSettingsSchema } from "~/features/waiting-lists/schemas";
import { ordinal } from "~/features/waiting-lists/waiting-list-rules";
import { moveInLine, productWaitingLists, saveProductWaitingList } from "~/features/waiting-lists/waiting-lists.server";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { intentOf, readForm } from "~/web/form-data.server";
import type { Route } from "./+types/waiting-list";
import { idFrom } from "./shop-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const { db, env } = context.get(runtimeContext);
  const [found, page] = await Promise.all([
    getProductForAdmin(db, productId, new Date()),
    productWaitingLists(db, productId, env.TIME_ZONE),
  ]);
  if (!found || !page) notFound();
  return { header: productHeader(found), page, offerHours: MERCH_OFFER_HOURS };
}

type Errors = Record<string, string[] | null | undefined>;

/** Switching the product's lists on or off, and moving someone up a line (organizers and admins), both audited. */
export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const productId = idFrom(params.productId);
  const { db } = context.get(runtimeContext);
  const actor = { actorId: user.id, ip: context.get(requestContext).ip, now: new Date() };
  const formData = await readForm(request);
  const here = `/admin/shop/${productId}/waiting-list`;
  const refused = (intent: string, errors: Errors, entryId?: string) =>
    data({ intent, errors, entryId: entryId ?? null }, { status: 400 });
  if (intentOf(formData) === "move") {
    const submission = parseWithZod(formData, { schema: MoveSchema });
    const entryId = String(formData.get("entryId") ?? "");
    if (submission.status !== "success") return refused("move", submission.error ?? {}, entryId);
    const moved = await moveInLine(db, { productId, ...submission.value, ...actor });
    if (!moved.ok) {
      if ("notFound" in moved) notFound();
      return refused("move", { [moved.field]: [moved.message] }, entryId);
    }
    return redirectWithFlash(here, {
      kind: "success",
      message: `${moved.name} is now ${ordinal(moved.position)} in line.`,
    });
  }
  const submission = parseWithZod(formData, { schema: ProductListSettingsSchema });
  if (submission.status !== "success") return refused("settings", submission.error ?? {});
  if (!(await saveProductWaitingList(db, productId, submission.value.enabled, actor))) notFound();
  return redirectWithFlash(here, { kind: "success", message: "Waiting list settings saved." });
}

export default function ProductWaitingList({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-[1000px] space-y-8">
      <ProductEditorHeader product={loaderData.header} />
      <ProductWaitingListPanel page={loaderData.page} offerHours={loaderData.offerHours} answer={actionData} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: pageTitle(matches, "Waiting list", data?.header.title ?? "Product", "Shop", "Dashboard") },
  { name: "robots", content: "noindex" },
];
