/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base address of the API; empty or unset means same origin. */
  readonly VITE_API_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
