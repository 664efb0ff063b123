import { Download, Layers } from "lucide-react";
import { Form, Link } from "react-router";
import { voucherForStaff, voucherTargetOptions } from "~/features/vouchers/staff-vouchers.server";
import { VoucherForm, voucherFormValues } from "~/features/vouchers/voucher-form";
import { describeEffect } from "~/features/vouchers/voucher-rules";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { SubmitButton } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import { countOf } from "~/ui/plural";
import { FormPage } from "~/ui/record-header";
import { useSite } from "~/ui/site";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/voucher";
import { voucherIdFrom, voucherPageAction } from "./voucher-forms.server";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const voucherId = voucherIdFrom(params.voucherId);
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  const found = await voucherForStaff(db, voucherId, now);
  if (!found) notFound("This code could not be found");
  const { voucher } = found;
  return {
    code: voucher.code,
    active: voucher.active,
    summary: `${describeEffect(voucher, env.CURRENCY)} · ${found.appliesTo.join(", ")}`,
    uses: voucher.maxUses === null ? `${found.used} used · no limit` : `${found.used} of ${voucher.maxUses} used`,
    everUsed: found.everUsed,
    batch: found.batch,
    values: voucherFormValues(voucher, env.TIME_ZONE),
    options: await voucherTargetOptions(db, { now, chosen: voucher }),
  };
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const voucherId = voucherIdFrom(params.voucherId);
  const { db, env } = context.get(runtimeContext);
  const call = { db, actorId: user.id, currency: env.CURRENCY, timeZone: env.TIME_ZONE, now: new Date(), voucherId };
  return voucherPageAction(call, await readForm(request));
}

const button = "inline-flex items-center gap-2 font-semibold text-link underline";

export default function EditVoucher({ loaderData, actionData }: Route.ComponentProps) {
  const { currency, timeZone } = useSite();
  const { code, active, batch } = loaderData;
  const switchTo = active ? "switch-off" : "switch-on";
  return (
    <FormPage
      back={
        batch
          ? { to: `/admin/vouchers?batch=${batch.id}`, label: batch.label }
          : { to: "/admin/vouchers", label: "Vouchers" }
      }
      title={code}
      badge={active ? <Badge tone="success">Active</Badge> : <Badge tone="quiet">Off</Badge>}
      intro={`${loaderData.summary}. ${loaderData.uses}.`}
    >
      <Card className="flex flex-wrap items-center justify-between gap-4 p-5">
        {batch ? (
          <div className="space-y-1">
            <p>
              One of {countOf(batch.codes, "code", "codes")} in the batch <strong>{batch.label}</strong>.
            </p>
            <p className="flex flex-wrap gap-4 text-sm">
              <Link to={`/admin/vouchers?batch=${batch.id}`} className={button}>
                <Layers aria-hidden className="size-4" /> The batch
              </Link>
              <a href={`/admin/vouchers/batches/${batch.id}/codes.csv`} className={button}>
                <Download aria-hidden className="size-4" /> Download its CSV
              </a>
            </p>
          </div>
        ) : (
          <p>{active ? "Buyers can use this code." : "This code is off: nobody can use it."}</p>
        )}
        <Form method="post">
          <input type="hidden" name="intent" value={switchTo} />
          <SubmitButton intent={switchTo} variant="secondary" fit pendingLabel="Saving…">
            {active ? "Switch off" : "Switch on"}
          </SubmitButton>
        </Form>
      </Card>
      <VoucherForm
        defaultValue={loaderData.values}
        currency={currency}
        timeZone={timeZone}
        options={loaderData.options}
        lastResult={actionData?.intent === "save" ? actionData.result : undefined}
        submitLabel="Save code"
        isNew={false}
        codeLocked={loaderData.everUsed}
      />
    </FormPage>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) => dashboardMeta(matches, data?.code ?? "Code", "Vouchers");
