export * from "./site";
