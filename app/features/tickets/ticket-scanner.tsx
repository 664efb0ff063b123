import { Camera, CameraOff } from "lucide-react";
import { useEffect, useRef, useState } from "react";

type Detect = (video: HTMLVideoElement) => Promise<string | null>;

type BarcodeDetectorLike = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
type BarcodeDetectorClass = new (options: { formats: string[] }) => BarcodeDetectorLike;

/** Loads the QR reader's code now, so the camera still reads codes after the connection goes. */
export function preloadScanner() {
  return import("jsqr").then(
    () => true,
    () => false,
  );
}

/**
 * The fastest QR reader this browser has: its own BarcodeDetector where there is one (Chrome on
 * Android), otherwise jsQR on canvas frames. jsQR is only downloaded when it is needed.
 */
async function makeDetector(): Promise<Detect> {
  const Native = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Native) {
    const detector = new Native({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    if (!context || video.videoWidth === 0) return null;
    // A smaller frame is read several times faster and a ticket's QR is still large in it.
    const scale = Math.min(1, 640 / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" })?.data ?? null;
  };
}

/**
 * The camera view for scanning tickets. Each QR read is handed to `onScan` once; the same code is
 * ignored for a few seconds so a ticket held in front of the camera is not sent again and again.
 * Nothing is decided here: the server says whether the ticket admits, or with no connection the
 * gate's offline rules do (docs/gate.md).
 */
export function TicketScanner({ onScan, busy }: { onScan(value: string): void; busy: boolean }) {
  const video = useRef<HTMLVideoElement>(null);
  const [wanted, setWanted] = useState(false);
  const [live, setLive] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const latest = useRef({ onScan, busy });
  latest.current = { onScan, busy };

  useEffect(() => {
    if (!wanted) return;
    let stopped = false;
    let stream: MediaStream | null = null;
    let frame = 0;
    let last = { value: "", at: 0 };
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
        const element = video.current;
        if (stopped || !element) return;
        element.srcObject = stream;
        await element.play();
        const detect = await makeDetector();
        setLive(true);
        const tick = async () => {
          if (stopped) return;
          if (!latest.current.busy) {
            const value = await detect(element).catch(() => null);
            const now = Date.now();
            if (value && (value !== last.value || now - last.at > 4000)) {
              last = { value, at: now };
              latest.current.onScan(value);
            }
          }
          frame = window.setTimeout(tick, 150);
        };
        tick();
      } catch (error) {
        if (stopped) return;
        setProblem(
          (error as Error).name === "NotAllowedError"
            ? "The camera is blocked. Allow it in the browser's site settings, or type the code below."
            : "No camera could be started. Type the code below instead.",
        );
        setWanted(false);
      }
    })();
    return () => {
      stopped = true;
      window.clearTimeout(frame);
      for (const track of stream?.getTracks() ?? []) track.stop();
      setLive(false);
    };
  }, [wanted]);

  const running = wanted;
  return (
    <div className="space-y-3">
      <div className="dark-band relative aspect-[4/3] overflow-hidden rounded-2xl bg-asphalt-950 ring-1 ring-white/10">
        <video ref={video} muted playsInline className={`size-full object-cover ${running ? "" : "hidden"}`} />
        {live ? (
          <div aria-hidden className="pointer-events-none absolute inset-[18%] rounded-2xl border-4 border-accent/80" />
        ) : running ? null : (
          <div className="absolute inset-0 grid place-items-center p-6 text-center text-asphalt-300">
            <p>
              <Camera aria-hidden className="mx-auto mb-2 size-10 text-accent-strong" />
              Point the camera at the ticket's QR code.
            </p>
          </div>
        )}
      </div>
      <button
        type="button"
        onClick={() => {
          setProblem(null);
          setWanted(!running);
        }}
        className="inline-flex w-full items-center justify-center gap-2 rounded-full bg-surface-sunken px-6 py-3 font-bold hover:bg-line"
      >
        {running ? <CameraOff aria-hidden className="size-4" /> : <Camera aria-hidden className="size-4" />}
        {running ? "Stop camera" : "Scan with camera"}
      </button>
      {problem ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
