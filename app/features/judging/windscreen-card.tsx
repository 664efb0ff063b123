import { useNonce } from "~/ui/nonce";

// A car's windscreen card (docs/car-shows.md): an A5 sheet behind the windscreen with the car's
// show number big enough to read across a field, its class and label, and the QR a visitor scans
// to vote for it. One card a page when printed.

/** The print rules: A5 sheets, one card each. A style element with the page's nonce, as CSP asks. */
export function WindscreenPrintStyle() {
  const nonce = useNonce();
  return (
    <style nonce={nonce || undefined}>
      {"@page { size: A5; margin: 10mm; } @media print { .windscreen-card { break-after: page; height: 190mm; } }"}
    </style>
  );
}

export function WindscreenCard({
  card,
}: {
  card: {
    applicationId: string;
    showNumber: number | null;
    className: string | null;
    carLabel: string;
    qrSvg: string;
    voteUrl: string;
  };
}) {
  return (
    <section
      aria-labelledby={`card-${card.applicationId}`}
      className="windscreen-card mx-auto mb-10 flex max-w-[148mm] flex-col items-center justify-between gap-4 border border-black/30 p-6 text-center print:mb-0 print:border-0 print:p-0"
    >
      <h2 id={`card-${card.applicationId}`} className="text-[120px] leading-none font-black tabular-nums">
        <span className="sr-only">Show number </span>
        {card.showNumber ?? "–"}
      </h2>
      <div className="space-y-1">
        {card.className ? <p className="text-2xl font-bold">{card.className}</p> : null}
        <p className="text-xl">{card.carLabel}</p>
      </div>
      <div className="space-y-2">
        {/* The library's own markup from the car's vote address, never text a person typed. */}
        <div
          role="img"
          aria-label={`QR code to vote for number ${card.showNumber ?? ""}`}
          className="mx-auto size-[60mm]"
          dangerouslySetInnerHTML={{ __html: card.qrSvg }}
        />
        <p className="text-sm font-semibold">Scan to vote in People&rsquo;s Choice</p>
        <p className="break-all text-xs">{card.voteUrl}</p>
      </div>
    </section>
  );
}
