import { Form } from "react-router";

const LABELS: Record<string, string> = { google: "Google", facebook: "Facebook", apple: "Apple" };

/** Federated sign-in buttons: only the providers whose credentials the site has configured. */
export function ProviderButtons({ providers, redirectTo }: { providers: string[]; redirectTo: string }) {
  if (providers.length === 0) return null;
  return (
    <Form method="post" action="/auth/social" className="grid gap-2">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {providers.map((provider) => (
        <button
          key={provider}
          type="submit"
          name="provider"
          value={provider}
          className="rounded-full border border-line px-6 py-3 font-semibold hover:bg-surface-sunken"
        >
          Continue with {LABELS[provider] ?? provider}
        </button>
      ))}
    </Form>
  );
}
