/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API origin; empty or unset means the same origin as the page. */
  readonly VITE_API_URL?: string;
  readonly VITE_OLD_CABINET_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
