/** Decorative hero art: a circuit outline and a car silhouette, drawn in SVG so nothing is downloaded. */
export function TrackArt({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 1200 600" preserveAspectRatio="xMidYMid slice" aria-hidden="true" className={className}>
      <defs>
        <radialGradient id="flood" cx="78%" cy="10%" r="80%">
          <stop offset="0" stopColor="#ff7a1a" stopOpacity="0.35" />
          <stop offset="0.45" stopColor="#ff7a1a" stopOpacity="0.06" />
          <stop offset="1" stopColor="#0b0c0e" stopOpacity="0" />
        </radialGradient>
        <linearGradient id="fade" x1="0" x2="0" y1="0" y2="1">
          <stop offset="0" stopColor="#0b0c0e" stopOpacity="0" />
          <stop offset="1" stopColor="#0b0c0e" />
        </linearGradient>
      </defs>
      <rect width="1200" height="600" fill="#0b0c0e" />
      <rect width="1200" height="600" fill="url(#flood)" />
      <path
        d="M160 470 C 120 380 180 300 290 300 L 560 300 C 640 300 650 210 720 180 C 820 140 980 150 1040 230 C 1100 310 1060 420 960 450 L 700 520 C 560 560 420 540 300 530 C 230 525 185 515 160 470 Z"
        fill="none"
        stroke="#ffffff"
        strokeOpacity="0.12"
        strokeWidth="18"
        strokeLinejoin="round"
      />
      <path
        d="M160 470 C 120 380 180 300 290 300 L 560 300 C 640 300 650 210 720 180 C 820 140 980 150 1040 230 C 1100 310 1060 420 960 450 L 700 520 C 560 560 420 540 300 530 C 230 525 185 515 160 470 Z"
        fill="none"
        stroke="#ff7a1a"
        strokeOpacity="0.7"
        strokeWidth="2"
        strokeDasharray="14 18"
      />
      <g transform="translate(640 360)" fill="#ffffff" fillOpacity="0.08">
        <path d="M0 80 C 10 50 60 40 110 36 L 200 10 C 240 0 320 0 370 16 L 450 44 C 500 48 540 58 556 80 L 560 100 L 0 100 Z" />
        <circle cx="110" cy="102" r="34" />
        <circle cx="450" cy="102" r="34" />
      </g>
      <rect width="1200" height="600" fill="url(#fade)" />
    </svg>
  );
}
