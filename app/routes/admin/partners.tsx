import { data } from "react-router";
import { partnerFormAction } from "~/features/partners/partner-forms.server";
import { PartnerForm, type PartnerListItem, PartnerRow } from "~/features/partners/partner-parts";
import { listPartners } from "~/features/partners/partners.server";
import { requireRole } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Card } from "~/ui/card";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { Notice } from "~/ui/form";
import { countOf } from "~/ui/plural";
import type { Route } from "./+types/partners";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, storage } = context.get(runtimeContext);
  const rows = await listPartners(db);
  const partners: PartnerListItem[] = rows.map((row) => ({
    id: row.id,
    name: row.name,
    url: row.url,
    active: row.active,
    logoHash: row.logo?.hash ?? null,
  }));
  return { partners, mediaBase: storage.publicBase };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, storage } = context.get(runtimeContext);
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    return data(
      { form: "new", errors: {}, values: {}, problem: "The form could not be read. Reload the page and try again." },
      { status: 400 },
    );
  }
  const actor = { actorId: user.id, ip: context.get(requestContext).ip };
  const outcome = await partnerFormAction({ db, storage, actor }, formData);
  if (!outcome.ok) {
    const { form, errors, values, problem } = outcome;
    return data({ form, errors, values, problem: problem ?? null }, { status: outcome.status });
  }
  return redirectWithFlash(url.pathname, { kind: "success", message: outcome.message });
}

export default function Partners({ loaderData, actionData }: Route.ComponentProps) {
  const { partners, mediaBase } = loaderData;
  const failed = (form: string) => (actionData?.form === form ? actionData : undefined);
  return (
    <div className="mx-auto max-w-[1100px] space-y-8">
      <div>
        <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">Home page</p>
        <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">Partners</h1>
        <p className="mt-2 max-w-prose text-muted">
          Sponsors and friends of the club, shown as a row of logos near the bottom of the home page, in this order.
        </p>
      </div>
      {actionData?.problem ? (
        <Notice kind="error">
          <p>{actionData.problem}</p>
        </Notice>
      ) : null}
      <section aria-labelledby="partner-list" className="space-y-3">
        <h2 id="partner-list" className="wide text-xl font-extrabold">
          {countOf(partners.length, "partner", "partners")}
        </h2>
        {partners.length === 0 ? (
          <Card as="p" variant="empty" className="p-10 text-muted">
            No partners yet. Add the first one below: its logo appears on the home page straight away.
          </Card>
        ) : (
          <Card as="ol" variant="list">
            {partners.map((partner, index) => (
              <PartnerRow
                key={partner.id}
                partner={partner}
                mediaBase={mediaBase}
                first={index === 0}
                last={index === partners.length - 1}
                errors={failed(partner.id)?.errors}
                values={failed(partner.id)?.values}
              />
            ))}
          </Card>
        )}
      </section>
      <Card as="section" aria-labelledby="add-partner" className="space-y-4 p-5 sm:p-6">
        <h2 id="add-partner" className="wide text-xl font-extrabold">
          Add a partner
        </h2>
        <PartnerForm hasLogo={false} errors={failed("new")?.errors} values={failed("new")?.values} />
      </Card>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Partners");
