import { useEffect, useState } from "react";

function clock(seconds: number) {
  const left = Math.max(0, seconds);
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/**
 * "Your tickets are held for 14:32": drawn on the server from the seconds left, then ticking
 * once the page's script runs. Screen readers get the time once, not a change every second.
 */
export function HoldCountdown({ expiresAt, secondsLeft }: { expiresAt: string; secondsLeft: number }) {
  const [left, setLeft] = useState(secondsLeft);
  useEffect(() => {
    const end = new Date(expiresAt).getTime();
    const tick = () => setLeft(Math.round((end - Date.now()) / 1000));
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [expiresAt]);
  if (left <= 0) return <>Your hold has run out: press Pay to hold your tickets again.</>;
  return (
    <>
      Your tickets are held for{" "}
      <time dateTime={expiresAt} className="tabular font-black" aria-live="off">
        {clock(left)}
      </time>
    </>
  );
}
