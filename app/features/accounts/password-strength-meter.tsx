import { useEffect, useState } from "react";
import { estimatePasswordStrength } from "./password-strength";

const TONES = ["bg-line", "bg-red-600", "bg-amber-500", "bg-lime-600", "bg-emerald-600"];

/** A strength meter that follows what the member types into the named password field. */
export function PasswordStrength({ formId, fieldName }: { formId: string; fieldName: string }) {
  const [password, setPassword] = useState("");
  useEffect(() => {
    const form = document.getElementById(formId);
    const onInput = (event: Event) => {
      const target = event.target as HTMLInputElement;
      if (target.name === fieldName) setPassword(target.value);
    };
    form?.addEventListener("input", onInput);
    return () => form?.removeEventListener("input", onInput);
  }, [formId, fieldName]);
  const { score, hint } = estimatePasswordStrength(password);
  if (!password) return null;
  return (
    <div className="space-y-1" aria-live="polite">
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4].map((step) => (
          <span key={step} className={`h-1.5 flex-1 rounded-full ${score >= step ? TONES[score] : "bg-line"}`} />
        ))}
      </div>
      <p className="text-sm text-muted">Strength: {hint}</p>
    </div>
  );
}
