import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";

// The progress bar's timings: how long a navigation runs before the bar shows, how long the bar
// takes to creep across, and how long the full bar stays before it is gone.
const PROGRESS_THROTTLE_MS = 200;
const PROGRESS_DURATION_MS = 5000;
const PROGRESS_HIDE_DELAY_MS = 500;

type Phase = "idle" | "running" | "finishing";

/**
 * A bar at the top of the page during navigation. It appears only when a navigation takes
 * longer than 200 ms, creeps towards 100 % over 5 s, then fills and fades 500 ms after the
 * page has arrived.
 */
export function ProgressBar() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [phase, setPhase] = useState<Phase>("idle");
  const [progress, setProgress] = useState(0);
  const phaseRef = useRef<Phase>("idle");
  phaseRef.current = phase;

  // A layout effect, run in the commit that ends the navigation: a passive effect runs a moment
  // after it, and the show timer could fire in between, setting "running" once this effect had
  // already found the bar idle and nothing was left to ever finish it (the bar stayed at 95 %).
  useLayoutEffect(() => {
    if (busy) {
      const show = window.setTimeout(() => {
        setProgress(0);
        setPhase("running");
        // Next frame: start the long transition from 0 towards (not quite) 100 %.
        requestAnimationFrame(() => requestAnimationFrame(() => setProgress(95)));
      }, PROGRESS_THROTTLE_MS);
      return () => window.clearTimeout(show);
    }
    if (phaseRef.current === "running") {
      setPhase("finishing");
      setProgress(100);
    }
  }, [busy]);

  // The hide delay counts from when the filled bar is on screen: a busy page may commit it late.
  // Only leaving "finishing" cancels it, so a quick navigation meanwhile cannot leave the bar up.
  useEffect(() => {
    if (phase !== "finishing") return;
    const hide = window.setTimeout(() => {
      setPhase("idle");
      setProgress(0);
    }, PROGRESS_HIDE_DELAY_MS);
    return () => window.clearTimeout(hide);
  }, [phase]);

  const visible = phase !== "idle";
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress)}
      aria-hidden={!visible}
      data-phase={phase}
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] h-[3px]"
      style={{
        opacity: visible ? 1 : 0,
        transition: `opacity ${phase === "finishing" ? 200 : 0}ms ease ${phase === "finishing" ? PROGRESS_HIDE_DELAY_MS - 200 : 0}ms`,
      }}
    >
      <div
        className="h-full bg-accent shadow-[0_0_8px_var(--color-accent)]"
        style={{
          width: `${progress}%`,
          transition:
            phase === "running"
              ? `width ${PROGRESS_DURATION_MS}ms cubic-bezier(0.1, 0.6, 0.3, 1)`
              : phase === "finishing"
                ? "width 150ms ease-out"
                : "none",
        }}
      />
    </div>
  );
}
