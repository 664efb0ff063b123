import { formatCount } from "~/ui/plural";

/** One month of the members chart: "2026-06", "Jun 2026", and what happened in it. */
export type MonthFigures = { month: string; label: string; joins: number; renewals: number; lapses: number };

/** The three series, in the design's colours that pass 3:1 against the page in light and dark. */
const SERIES = [
  { key: "joins", label: "Joined", fill: "fill-accent-ink", swatch: "bg-accent-ink" },
  { key: "renewals", label: "Renewed", fill: "fill-link", swatch: "bg-link" },
  { key: "lapses", label: "Lapsed or ended", fill: "fill-muted", swatch: "bg-muted" },
] as const;

const WIDTH = 720;
const HEIGHT = 240;
const PLOT = { left: 40, right: 8, top: 12, bottom: 28 };

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least the largest count. */
function axisTop(largest: number) {
  if (largest <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(largest));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= largest) ?? 10;
  return step * power;
}

/**
 * Joins, renewals and lapses per month as grouped bars in SVG, with a legend and the figures as a
 * table under "Figures by month" (what a screen reader reads in full). Drawn on the server to
 * static HTML (members-by-month.server.ts): it has no state and no handlers.
 */
export function MembersChart({ months }: { months: MonthFigures[] }) {
  const totals = Object.fromEntries(
    SERIES.map((series) => [series.key, months.reduce((sum, month) => sum + month[series.key], 0)]),
  ) as Record<(typeof SERIES)[number]["key"], number>;
  const top = axisTop(Math.max(0, ...months.flatMap((month) => SERIES.map((series) => month[series.key]))));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const group = plotWidth / Math.max(1, months.length);
  const bar = (group * 0.7) / SERIES.length;
  const y = (count: number) => PLOT.top + plotHeight - (count / top) * plotHeight;
  const summary = `Over the last ${months.length} months: ${formatCount(totals.joins)} joined, ${formatCount(totals.renewals)} renewed, ${formatCount(totals.lapses)} lapsed or ended.`;
  return (
    <section aria-labelledby="members-chart-title" className="rounded-2xl border border-line bg-surface-raised p-5">
      <h2 id="members-chart-title" className="wide text-xl font-extrabold">
        Members by month
      </h2>
      <p id="members-chart-summary" className="mt-1 text-sm text-muted">
        {summary}
      </p>
      <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        {SERIES.map((series) => (
          <li key={series.key} className="flex items-center gap-2">
            <span aria-hidden className={`inline-block size-3 rounded-sm ${series.swatch}`} />
            {series.label}
          </li>
        ))}
      </ul>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="members-chart-svg-title members-chart-summary"
        className="mt-3 h-auto w-full"
      >
        <title id="members-chart-svg-title">Members joined, renewed and lapsed or ended, by month</title>
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line
              x1={PLOT.left}
              x2={WIDTH - PLOT.right}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-line"
              strokeWidth={1}
            />
            <text x={PLOT.left - 6} y={y(tick) + 4} textAnchor="end" className="fill-muted text-[11px]">
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {months.map((month, index) => {
          const left = PLOT.left + index * group + group * 0.15;
          return (
            <g key={month.month}>
              {SERIES.map((series, position) => {
                const count = month[series.key];
                return count > 0 ? (
                  <rect
                    key={series.key}
                    x={left + position * bar}
                    y={y(count)}
                    width={bar - 1}
                    height={PLOT.top + plotHeight - y(count)}
                    className={series.fill}
                  >
                    <title>{`${month.label}: ${formatCount(count)} ${series.label.toLowerCase()}`}</title>
                  </rect>
                ) : null;
              })}
              <text
                x={PLOT.left + index * group + group / 2}
                y={HEIGHT - 8}
                textAnchor="middle"
                className="fill-muted text-[11px]"
              >
                {month.label.slice(0, 3)}
              </text>
            </g>
          );
        })}
      </svg>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-semibold text-link underline">Figures by month</summary>
        <table className="mt-3 w-full text-sm tabular">
          <caption className="sr-only">Members joined, renewed and lapsed or ended, by month</caption>
          <thead>
            <tr className="text-left text-muted">
              <th scope="col" className="py-1 pr-4 font-semibold">
                Month
              </th>
              {SERIES.map((series) => (
                <th key={series.key} scope="col" className="py-1 pr-4 text-right font-semibold">
                  {series.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {months.map((month) => (
              <tr key={month.month}>
                <th scope="row" className="py-1 pr-4 text-left font-normal">
                  {month.label}
                </th>
                {SERIES.map((series) => (
                  <td key={series.key} className="py-1 pr-4 text-right">
                    {formatCount(month[series.key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
