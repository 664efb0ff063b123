/** The mark: a pit board with a chequered corner. The name beside it comes from settings. */
export function Logo({ name, className = "" }: { name: string; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" className="shrink-0">
        <rect x="1" y="1" width="30" height="30" rx="7" fill="#ff7a1a" />
        <path d="M9 23V9h8a5 5 0 0 1 0 10h-4v4z" fill="#111214" />
        <path d="M13 13h4a1 1 0 0 1 0 2h-4z" fill="#ff7a1a" />
        <path d="M22 22h3v3h-3zM25 25h3v3h-3zM25 19h3v3h-3zM19 25h3v3h-3z" fill="#111214" />
      </svg>
      <span className="wide text-lg font-extrabold uppercase tracking-tight">{name}</span>
    </span>
  );
}
