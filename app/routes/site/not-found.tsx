import { notFound } from "~/ui/not-found";

export function loader() {
  notFound();
}

export default function NotFound() {
  return null;
}
