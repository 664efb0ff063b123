import type { ReactNode } from "react";
import { TrackArt } from "~/ui/track-art";

/** The frame of the sign-in and sign-up pages: a card over a dark track drawing. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main id="main" className="dark-band relative isolate -mb-24 bg-asphalt-950 px-4 py-12 sm:py-20">
      <TrackArt className="absolute inset-0 -z-10 size-full opacity-60" />
      <div className="mx-auto w-full max-w-md rounded-3xl bg-surface p-6 text-text shadow-2xl ring-1 ring-line sm:p-8">
        <h1 className="wide text-2xl font-extrabold sm:text-3xl">{title}</h1>
        {intro ? <div className="mt-2 text-muted">{intro}</div> : null}
        <div className="mt-6 space-y-5">{children}</div>
      </div>
    </main>
  );
}
