import { Car } from "lucide-react";
import { Link } from "react-router";
import { QrStub } from "~/features/tickets/qr-stub";

export type PassWithQr = {
  id: string;
  carLabel: string;
  eventTitle: string;
  eventSlug: string;
  shortCode: string;
  qrSvg: string | null;
};

/**
 * An exhibitor pass on /success: the car and the event, and the QR on white with the typable
 * code under it. The QR markup is drawn on the server from our own signed code.
 */
export function PassCard({ pass }: { pass: PassWithQr }) {
  return (
    <article
      aria-label={`Exhibitor pass for ${pass.carLabel}`}
      className="overflow-hidden rounded-2xl border border-line bg-surface-raised shadow-sm sm:grid sm:grid-cols-[1fr_auto]"
    >
      <div className="flex min-w-0 flex-col gap-2 p-5">
        <p className="text-xs font-bold uppercase tracking-[0.14em] text-accent-ink">Exhibitor pass</p>
        <h3 className="wide flex items-center gap-2 text-xl font-extrabold leading-tight">
          <Car aria-hidden className="size-5 text-muted" /> {pass.carLabel}
        </h3>
        <Link to={`/events/${pass.eventSlug}`} className="text-sm font-semibold hover:underline">
          {pass.eventTitle}
        </Link>
      </div>
      {pass.qrSvg ? <QrStub svg={pass.qrSvg} code={pass.shortCode} what="exhibitor pass" codeName="Pass code" /> : null}
    </article>
  );
}
