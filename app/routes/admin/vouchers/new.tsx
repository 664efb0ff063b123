import { voucherTargetOptions } from "~/features/vouchers/staff-vouchers.server";
import { VoucherForm, voucherFormValues } from "~/features/vouchers/voucher-form";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { FormPage } from "~/ui/record-header";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/new";
import { createVoucherAction } from "./voucher-forms.server";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const batch = url.searchParams.get("mode") === "batch";
  return {
    batch,
    values: { ...voucherFormValues(null, env.TIME_ZONE), mode: batch ? ("batch" as const) : ("single" as const) },
    options: await voucherTargetOptions(db, { now: new Date() }),
  };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, now: new Date() };
  return createVoucherAction(call, await readForm(request));
}

export default function NewVoucher({ loaderData, actionData }: Route.ComponentProps) {
  const { currency, timeZone } = useSite();
  return (
    <FormPage
      back={{ to: "/admin/vouchers", label: "Vouchers" }}
      title={loaderData.batch ? "New batch of codes" : "New code"}
      intro="Type one code to hand out widely, or make a batch of random codes, one for each person. Untick Active to save it switched off."
    >
      <VoucherForm
        defaultValue={loaderData.values}
        currency={currency}
        timeZone={timeZone}
        options={loaderData.options}
        lastResult={actionData?.result}
        submitLabel="Save"
        isNew
      />
    </FormPage>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  dashboardMeta(matches, data?.batch ? "New batch" : "New code", "Vouchers");
