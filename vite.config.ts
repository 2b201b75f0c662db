import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console: index.html at the root, runtime/main.tsx as the entry, dist/ as the output
// that the API server serves. In development /api goes to the API server (npm run dev).
export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://localhost:8080', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
});
