// Types for heic-decode (HEIC to RGBA pixels through libheif in WebAssembly), which ships none.
declare module "heic-decode" {
  type Decoded = { width: number; height: number; data: Uint8ClampedArray };
  type Image = { width: number; height: number; decode(): Promise<Decoded> };
  function decode(input: { buffer: Uint8Array | ArrayBuffer }): Promise<Decoded>;
  namespace decode {
    function all(input: { buffer: Uint8Array | ArrayBuffer }): Promise<Image[] & { dispose(): void }>;
  }
  export default decode;
}
