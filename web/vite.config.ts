import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

const API = process.env.VITE_DEV_API ?? 'http://localhost:8080';

/** Paths that are both SPA pages (GET) and API calls (POST): only non-GET requests go to the server. */
const postOnly: ProxyOptions = {
  target: API,
  changeOrigin: true,
  bypass: (req) => (req.method === 'GET' || req.method === 'HEAD' ? '/index.html' : undefined),
};

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API, changeOrigin: true },
      '^/(login|register|logout)$': postOnly,
      '^/password-(forgot|reset)$': { target: API, changeOrigin: true },
    },
  },
});
