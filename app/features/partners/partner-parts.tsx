import { ArrowDown, ArrowUp, ExternalLink, Eye, EyeOff, Trash2 } from "lucide-react";
import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { Field, FieldErrors, SubmitButton } from "~/ui/form";
import type { FieldLike } from "~/ui/light-form";
import { logoSources } from "./logo-urls";
import { PartnerLogo } from "./partner-logo";
import type { PartnerErrors, PartnerValues } from "./schemas";

/** Name, website and logo: the add form (no `partnerId`) and each partner's edit form. */
export function PartnerForm({
  partnerId,
  values,
  errors,
  hasLogo,
}: {
  partnerId?: string;
  values?: PartnerValues;
  errors?: PartnerErrors;
  hasLogo: boolean;
}) {
  const key = partnerId ?? "new";
  const id = (name: string) => `partner-${key}-${name}`;
  const field = (name: keyof PartnerValues, maxLength: number): FieldLike => ({
    id: id(name),
    name,
    errorId: id(`${name}-error`),
    errors: errors?.[name],
    initialValue: values?.[name],
    required: true,
    maxLength,
  });
  return (
    <Form method="post" encType="multipart/form-data" className="grid gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value={partnerId ? "update" : "create"} />
      {partnerId ? <input type="hidden" name="partnerId" value={partnerId} /> : null}
      <Field meta={field("name", 80)} label="Name" />
      <Field meta={field("url", 500)} label="Website" type="url" inputProps={{ placeholder: "https://" }} />
      <div className="space-y-1.5 sm:col-span-2">
        <label htmlFor={id("logo")} className="block font-semibold">
          {hasLogo ? "New logo (optional)" : "Logo"}
        </label>
        <input
          id={id("logo")}
          name="logo"
          type="file"
          accept="image/png,image/webp,image/jpeg,image/heic"
          required={!hasLogo}
          aria-invalid={errors?.logo ? true : undefined}
          aria-describedby={[id("logo-hint"), errors?.logo ? id("logo-error") : undefined].filter(Boolean).join(" ")}
          className="block w-full text-sm file:mr-3 file:rounded-full file:border-0 file:bg-surface-sunken file:px-4 file:py-2 file:font-semibold"
        />
        <p id={id("logo-hint")} className="text-sm text-muted">
          PNG or WebP with a transparent background works best; up to 900 KB. It is shown whole, never cropped.
        </p>
        <FieldErrors id={id("logo-error")} errors={errors?.logo} />
      </div>
      <div className="sm:col-span-2">
        <SubmitButton intent={partnerId ? "update" : "create"} pendingLabel="Saving…" fit>
          {partnerId ? "Save partner" : "Add partner"}
        </SubmitButton>
      </div>
    </Form>
  );
}

function RowButton({
  partnerId,
  intent,
  fields,
  label,
  children,
  danger = false,
}: {
  partnerId: string;
  intent: string;
  fields?: Record<string, string>;
  label: string;
  children: React.ReactNode;
  danger?: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="partnerId" value={partnerId} />
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className={`inline-flex h-10 items-center gap-1.5 rounded-full px-3 text-sm font-semibold ring-1 ring-line ${danger ? "text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950" : "hover:bg-surface-sunken"}`}
      >
        {children}
        <span className="sr-only">{label}</span>
      </button>
    </Form>
  );
}

export type PartnerListItem = {
  id: string;
  name: string;
  url: string;
  active: boolean;
  logoHash: string | null;
};

/** One partner on /admin/partners: its logo, where it links, and what staff can do with it. */
export function PartnerRow({
  partner,
  mediaBase,
  first,
  last,
  errors,
  values,
}: {
  partner: PartnerListItem;
  mediaBase: string;
  first: boolean;
  last: boolean;
  errors?: PartnerErrors;
  values?: PartnerValues;
}) {
  return (
    <li className="space-y-3 p-4 sm:p-5">
      <div className="flex flex-wrap items-center gap-4">
        <div className="grid h-20 w-40 place-items-center rounded-xl bg-white ring-1 ring-line">
          {partner.logoHash ? (
            <PartnerLogo sources={logoSources(partner.logoHash, mediaBase)} alt={partner.name} />
          ) : (
            <span className="text-sm text-asphalt-700">No logo</span>
          )}
        </div>
        <div className="min-w-0 flex-1 space-y-1">
          <h3 className="flex flex-wrap items-center gap-2 text-lg font-bold">
            {partner.name}
            {partner.active ? <Badge tone="success">On the home page</Badge> : <Badge tone="quiet">Hidden</Badge>}
          </h3>
          <a
            href={partner.url}
            rel="noopener noreferrer"
            className="inline-flex max-w-full items-center gap-1 truncate text-sm text-link underline"
          >
            {partner.url} <ExternalLink aria-hidden className="size-3.5 shrink-0" />
          </a>
        </div>
        <div className="flex flex-wrap gap-2">
          {[
            { direction: "up", Icon: ArrowUp, at: first },
            { direction: "down", Icon: ArrowDown, at: last },
          ].map(({ direction, Icon, at }) =>
            // The first partner cannot go up, nor the last one down.
            at ? null : (
              <RowButton
                key={direction}
                partnerId={partner.id}
                intent="move"
                fields={{ direction }}
                label={`Move ${partner.name} ${direction}`}
              >
                <Icon aria-hidden className="size-4" />
              </RowButton>
            ),
          )}
          <RowButton
            partnerId={partner.id}
            intent="active"
            fields={{ active: partner.active ? "false" : "true" }}
            label={partner.active ? `Hide ${partner.name}` : `Show ${partner.name}`}
          >
            {partner.active ? <EyeOff aria-hidden className="size-4" /> : <Eye aria-hidden className="size-4" />}
            <span aria-hidden>{partner.active ? "Hide" : "Show"}</span>
          </RowButton>
        </div>
      </div>
      <details className="group" open={Boolean(errors)}>
        <summary className="cursor-pointer text-sm font-semibold text-link underline">
          Edit or delete<span className="sr-only"> {partner.name}</span>
        </summary>
        <Card className="mt-3 space-y-5 p-4 sm:p-5">
          <PartnerForm
            partnerId={partner.id}
            hasLogo={Boolean(partner.logoHash)}
            errors={errors}
            values={values ?? { name: partner.name, url: partner.url }}
          />
          <div className="border-t border-line pt-4">
            <RowButton partnerId={partner.id} intent="delete" label={`Delete ${partner.name} for good`} danger>
              <Trash2 aria-hidden className="size-4" />
              <span aria-hidden>Delete for good</span>
            </RowButton>
          </div>
        </Card>
      </details>
    </li>
  );
}
