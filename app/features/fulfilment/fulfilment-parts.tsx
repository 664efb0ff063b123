import { AlertTriangle, ExternalLink, MapPin, Package, Truck } from "lucide-react";
import { Form, Link } from "react-router";
import { Badge, type BadgeTone } from "~/ui/badge";
import { Card } from "~/ui/card";
import { FieldErrors, inputClass, SubmitButton } from "~/ui/form";
import { CARRIER_IDS, CARRIERS } from "./carriers";
import { addressLines, lineLabel, type MerchLine } from "./lines";

const FULFILMENT_LABELS: Record<string, { label: string; tone: BadgeTone }> = {
  unfulfilled: { label: "To pack", tone: "warning" },
  shipped: { label: "Shipped", tone: "success" },
  ready_for_collection: { label: "Ready to collect", tone: "accent" },
  collected: { label: "Collected", tone: "neutral" },
};

function FulfilmentBadge({ status }: { status: string | null }) {
  const state = status ? FULFILMENT_LABELS[status] : undefined;
  return state ? <Badge tone={state.tone}>{state.label}</Badge> : null;
}

export type ShipErrors = { carrier?: string[]; trackingNumber?: string[]; trackingUrl?: string[] };
export type ShipValues = { carrier?: string; trackingNumber?: string; trackingUrl?: string };

export type FulfilmentCardOrder = {
  id: string;
  reference: string;
  name: string | null;
  email: string;
  paidLabel: string | null;
  shippedLabel: string | null;
  shippingMethod: "delivery" | "collection" | null;
  shippingAddress: Parameters<typeof addressLines>[0] | null;
  fulfilmentStatus: string | null;
  carrierLabel: string;
  trackingNumber: string | null;
  trackingUrl: string | null;
  eventTitle: string | null;
  eventLabel: string | null;
  lines: MerchLine[];
};

function MerchLines({ lines }: { lines: MerchLine[] }) {
  return (
    <ul className="space-y-1">
      {lines.map((line) => (
        <li key={line.id} className="flex gap-2">
          <Package aria-hidden className="mt-0.5 size-4 shrink-0 text-muted" />
          {lineLabel(line)}
        </li>
      ))}
    </ul>
  );
}

function ShipForm({ order, errors, values }: { order: FulfilmentCardOrder; errors?: ShipErrors; values?: ShipValues }) {
  const id = (name: string) => `${name}-${order.id}`;
  return (
    <Form method="post" className="grid gap-3 sm:grid-cols-[10rem_1fr] lg:grid-cols-[10rem_1fr_1fr_auto] lg:items-end">
      <input type="hidden" name="orderId" value={order.id} />
      <div className="space-y-1.5">
        <label htmlFor={id("carrier")} className="block text-sm font-semibold">
          Carrier
        </label>
        <select
          id={id("carrier")}
          name="carrier"
          defaultValue={values?.carrier ?? "royal_mail"}
          aria-invalid={errors?.carrier ? true : undefined}
          aria-describedby={errors?.carrier ? id("carrier-error") : undefined}
          className={`${inputClass(Boolean(errors?.carrier))} h-11`}
        >
          {CARRIER_IDS.map((carrier) => (
            <option key={carrier} value={carrier}>
              {CARRIERS[carrier].label}
            </option>
          ))}
        </select>
        <FieldErrors id={id("carrier-error")} errors={errors?.carrier} />
      </div>
      <div className="space-y-1.5">
        <label htmlFor={id("tracking")} className="block text-sm font-semibold">
          Tracking number
        </label>
        <input
          id={id("tracking")}
          name="trackingNumber"
          required
          maxLength={60}
          autoComplete="off"
          defaultValue={values?.trackingNumber}
          aria-invalid={errors?.trackingNumber ? true : undefined}
          aria-describedby={errors?.trackingNumber ? id("tracking-error") : undefined}
          className={`${inputClass(Boolean(errors?.trackingNumber))} h-11 font-mono`}
        />
        <FieldErrors id={id("tracking-error")} errors={errors?.trackingNumber} />
      </div>
      <div className="space-y-1.5 sm:col-span-2 lg:col-span-1">
        <label htmlFor={id("url")} className="block text-sm font-semibold">
          Tracking page
        </label>
        <input
          id={id("url")}
          name="trackingUrl"
          type="url"
          maxLength={500}
          placeholder="https://"
          defaultValue={values?.trackingUrl}
          aria-invalid={errors?.trackingUrl ? true : undefined}
          aria-describedby={errors?.trackingUrl ? `${id("url-hint")} ${id("url-error")}` : id("url-hint")}
          className={`${inputClass(Boolean(errors?.trackingUrl))} h-11`}
        />
        <p id={id("url-hint")} className="text-xs text-muted">
          Only for carrier “Other”: its page for this parcel.
        </p>
        <FieldErrors id={id("url-error")} errors={errors?.trackingUrl} />
      </div>
      <div className="sm:col-span-2 lg:col-span-1">
        <SubmitButton name="intent" value="ship" pendingLabel="Saving…" fit>
          <Truck aria-hidden className="size-4" /> Mark shipped
        </SubmitButton>
      </div>
    </Form>
  );
}

function StepForm({ orderId, intent, label }: { orderId: string; intent: "ready" | "collected"; label: string }) {
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="orderId" value={orderId} />
      <SubmitButton name="intent" value={intent} variant={intent === "ready" ? "primary" : "secondary"} fit>
        {label}
      </SubmitButton>
    </Form>
  );
}

/** One order on /admin/fulfilment: who, what, where to, and the next step for staff. */
export function FulfilmentCard({
  order,
  errors,
  values,
}: {
  order: FulfilmentCardOrder;
  errors?: ShipErrors;
  values?: ShipValues;
}) {
  const headingId = `order-${order.id}`;
  return (
    <Card as="li" className="space-y-4 p-5" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start gap-3">
        <input
          type="checkbox"
          name="orders"
          value={order.id}
          form="packing"
          aria-label={`Select ${order.reference} for packing lists`}
          className="mt-1.5 size-5 accent-[var(--color-accent)]"
        />
        <div className="min-w-0 flex-1 space-y-0.5">
          <h2 id={headingId} className="flex flex-wrap items-center gap-2">
            <Link
              to={`/admin/orders/${order.id}`}
              className="font-mono text-lg font-bold underline-offset-2 hover:underline"
            >
              {order.reference}
            </Link>
            <FulfilmentBadge status={order.fulfilmentStatus} />
          </h2>
          <p className="truncate">
            <span className="font-semibold">{order.name ?? order.email}</span>
            {order.name ? <span className="text-muted"> · {order.email}</span> : null}
          </p>
          {order.paidLabel ? <p className="text-sm text-muted">Paid {order.paidLabel}</p> : null}
        </div>
        <Link
          to={`/admin/fulfilment/packing-list?orders=${order.id}`}
          className="text-sm font-semibold text-link underline"
        >
          Packing list<span className="sr-only"> for {order.reference}</span>
        </Link>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <MerchLines lines={order.lines} />
        <div className="flex gap-2 text-sm">
          <MapPin aria-hidden className="mt-0.5 size-4 shrink-0 text-muted" />
          {order.shippingMethod === "delivery" && order.shippingAddress ? (
            <address className="not-italic">
              {addressLines(order.shippingAddress).map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </address>
          ) : (
            <p>
              Collect at <strong>{order.eventTitle}</strong>
              {order.eventLabel ? <span className="block text-muted">{order.eventLabel}</span> : null}
            </p>
          )}
        </div>
      </div>
      {order.fulfilmentStatus === "shipped" ? (
        <p className="text-sm">
          {order.carrierLabel} · <span className="font-mono">{order.trackingNumber}</span>
          {order.shippedLabel ? ` · shipped ${order.shippedLabel}` : ""}
          {order.trackingUrl ? (
            <>
              {" · "}
              <a
                href={order.trackingUrl}
                className="inline-flex items-center gap-1 font-semibold text-link underline"
                rel="noreferrer"
              >
                Track<span className="sr-only"> {order.reference}</span>{" "}
                <ExternalLink aria-hidden className="size-3.5" />
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      {order.shippingMethod === "delivery" && order.fulfilmentStatus === "unfulfilled" ? (
        <ShipForm order={order} errors={errors} values={values} />
      ) : null}
      {order.shippingMethod === "collection" && order.fulfilmentStatus === "unfulfilled" ? (
        <div className="flex flex-wrap gap-3">
          <StepForm orderId={order.id} intent="ready" label="Ready for collection" />
          <StepForm orderId={order.id} intent="collected" label="Handed over" />
        </div>
      ) : null}
      {order.shippingMethod === "collection" && order.fulfilmentStatus === "ready_for_collection" ? (
        <StepForm orderId={order.id} intent="collected" label="Handed over" />
      ) : null}
    </Card>
  );
}

/** The low-stock warning on staff pages: the variants at or below their threshold, fewest left first. */
export function LowStockCard({
  variants,
}: {
  variants: { id: string; productId: string; product: string; options: string[]; available: number }[];
}) {
  if (variants.length === 0) return null;
  const shown = variants.slice(0, 6);
  return (
    <Card as="section" aria-labelledby="low-stock" className="p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="low-stock" className="flex items-center gap-2 text-lg font-extrabold">
          <AlertTriangle aria-hidden className="size-5 text-amber-700 dark:text-amber-300" /> Low stock
        </h2>
        <Link to="/admin/shop" className="text-sm font-semibold text-link underline">
          {variants.length > shown.length ? "More in the shop" : "Open the shop"}
        </Link>
      </div>
      <ul className="mt-3 grid gap-x-8 gap-y-1.5 text-sm md:grid-cols-2">
        {shown.map((variant) => (
          <li key={variant.id} className="flex justify-between gap-3">
            <Link
              to={`/admin/shop/${variant.productId}`}
              className="min-w-0 truncate font-semibold text-link underline"
            >
              {variant.product}
              {variant.options.length > 0 ? ` (${variant.options.join(" / ")})` : ""}
            </Link>
            <span className="tabular shrink-0">
              {variant.available === 0 ? "Sold out" : `${variant.available} left`}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The buyer's view of their merch: where it is, and the carrier's tracking link once posted. */
export function FulfilmentStatus({
  order,
}: {
  order: {
    fulfilmentStatus: string | null;
    shippingMethod: string | null;
    carrierLabel?: string;
    trackingNumber: string | null;
    trackingUrl: string | null;
    eventTitle?: string | null;
  };
}) {
  if (!order.fulfilmentStatus) return null;
  const text = {
    unfulfilled:
      order.shippingMethod === "collection"
        ? `We are packing your merch for collection${order.eventTitle ? ` at ${order.eventTitle}` : ""}.`
        : "We are packing your merch. You will get an email with the tracking link once it is posted.",
    shipped: `Posted${order.carrierLabel ? ` with ${order.carrierLabel}` : ""}.`,
    ready_for_collection: `Your merch is waiting for you${order.eventTitle ? ` at ${order.eventTitle}` : ""}: show your ticket at the gate.`,
    collected: "Handed over. Enjoy it!",
  }[order.fulfilmentStatus];
  return (
    <Card as="section" aria-labelledby="merch-status" className="space-y-2 p-5">
      <h2 id="merch-status" className="flex flex-wrap items-center gap-2 text-lg font-extrabold">
        Merch <FulfilmentBadge status={order.fulfilmentStatus} />
      </h2>
      <p>{text}</p>
      {order.fulfilmentStatus === "shipped" && order.trackingUrl ? (
        <p>
          Tracking number <span className="font-mono">{order.trackingNumber}</span> ·{" "}
          <a
            href={order.trackingUrl}
            rel="noreferrer"
            className="inline-flex items-center gap-1 font-semibold text-link underline"
          >
            Track your parcel <ExternalLink aria-hidden className="size-3.5" />
          </a>
        </p>
      ) : null}
    </Card>
  );
}
