/**
 * The tear-off part of a ticket or an exhibitor pass: the QR on white with the typable code under
 * it, so staff can scan it or key it in. Beside the stub from the small breakpoint, under it before.
 */
export function QrStub({ svg, code, what, codeName }: { svg: string; code: string; what: string; codeName: string }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 border-t-2 border-dashed border-line bg-surface p-5 sm:border-t-0 sm:border-l-2">
      <div
        role="img"
        aria-label={`QR code for ${what} ${code}`}
        className="size-44 rounded-lg bg-white p-1 sm:size-40"
        dangerouslySetInnerHTML={{ __html: svg }}
      />
      <p className="max-w-44 text-center font-mono text-xs tracking-wider tabular">
        <span className="sr-only">{codeName} </span>
        {code}
      </p>
    </div>
  );
}
