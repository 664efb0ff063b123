import { type MouseEvent, useEffect, useState } from "react";
import { useNavigation } from "react-router";

/**
 * "Send a new code", with the seconds left before another code may be sent. The wait counts
 * down in the browser; without JavaScript the button still posts and the server says how long
 * is left. Give it a new `key` with every answer from the server to restart the count.
 */
export function ResendCodeButton({ waitSeconds }: { waitSeconds: number }) {
  const [wait, setWait] = useState(waitSeconds);
  useEffect(() => {
    if (waitSeconds <= 0) return;
    const endsAt = Date.now() + waitSeconds * 1000;
    const timer = window.setInterval(() => {
      const left = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      setWait(left);
      if (left === 0) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [waitSeconds]);

  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "resend";
  const waiting = wait > 0;
  function onClick(event: MouseEvent<HTMLButtonElement>) {
    if (waiting || pending) event.preventDefault();
  }
  return (
    <button
      type="submit"
      name="intent"
      value="resend"
      onClick={onClick}
      aria-disabled={waiting || pending || undefined}
      className="inline-flex w-full items-center justify-center gap-2 rounded-full bg-surface-sunken px-6 py-3 font-bold text-text transition hover:bg-line aria-disabled:cursor-not-allowed aria-disabled:opacity-70"
    >
      {pending ? "Sending…" : waiting ? `Send a new code in ${wait} s` : "Send a new code"}
    </button>
  );
}
