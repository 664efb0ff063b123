import { CalendarPlus } from "lucide-react";

/**
 * Where to subscribe to a calendar feed at `feedUrl` (an https address): Apple's calendars take a
 * webcal:// link, Google and Outlook a page of theirs that adds it. Any other app takes the
 * address itself. Plain links: nothing runs in the browser.
 */
function subscribeLinks(feedUrl: string, name: string) {
  const webcal = feedUrl.replace(/^https?:\/\//, "webcal://");
  return {
    apple: webcal,
    google: `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`,
    outlook: `https://outlook.live.com/calendar/0/addfromweb?url=${encodeURIComponent(feedUrl)}&name=${encodeURIComponent(name)}`,
  };
}

const linkClass =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-full bg-surface-sunken px-5 py-2.5 font-semibold text-text hover:bg-line";

/** Subscribe buttons for Apple, Google and Outlook, and the address for any other calendar app. */
export function SubscribeLinks({ feedUrl, name, label }: { feedUrl: string; name: string; label: string }) {
  const links = subscribeLinks(feedUrl, name);
  return (
    <div className="space-y-3">
      <ul aria-label={label} className="flex flex-wrap gap-2">
        {(
          [
            [links.apple, "Apple Calendar"],
            [links.google, "Google Calendar"],
            [links.outlook, "Outlook"],
          ] as const
        ).map(([href, app]) => (
          <li key={app}>
            <a href={href} className={linkClass} rel="nofollow noopener">
              <CalendarPlus aria-hidden className="size-5" /> <span className="sr-only">Subscribe in </span>
              {app}
            </a>
          </li>
        ))}
      </ul>
      <p className="text-sm text-muted">
        Another app? Subscribe to this address:{" "}
        <code className="break-all rounded bg-surface-sunken px-1.5 py-0.5 text-text select-all">{feedUrl}</code>
      </p>
    </div>
  );
}
