// A page of text with nothing but React Router around it: what the framework alone costs a phone.

export function meta() {
  return [
    { title: "Calibration page" },
    { name: "description", content: "A page of text served by a bare React Router app, to calibrate Lighthouse." },
  ];
}

const SECTIONS = [
  "What this page is",
  "Why it is here",
  "What it holds",
  "What it leaves out",
  "How to read its scores",
  "When it scores lower",
];

export default function Home() {
  return (
    <main>
      <h1>Calibration page</h1>
      {SECTIONS.map((heading) => (
        <section key={heading}>
          <h2>{heading}</h2>
          <p>
            This page is rendered on the server and hydrated in the browser by React Router and nothing else: no styles
            beyond a few inline ones, no fonts, no images, no data. Its scores are what the framework alone costs on
            this machine, measured by the same Lighthouse in the same run as the site's pages, so a slow or busy machine
            shows here as well as on them, and a regression in the site shows only on the site.
          </p>
          <p>
            A site page that scores well below this one spends its time on something of its own: its styles and fonts,
            its images, the code of its routes and components, or the work they do while hydrating.
          </p>
        </section>
      ))}
    </main>
  );
}
