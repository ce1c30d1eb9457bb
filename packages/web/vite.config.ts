import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = 'http://localhost:8000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        // Ant Design is large: keep it, React and the i18n stack in chunks of their own that
        // every lazily loaded page shares and browsers cache across releases of our code.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(@ant-design\/icons|@ant-design\/icons-svg)\//.test(id)) return 'icons';
          if (/node_modules\/(antd|@ant-design|@rc-component|rc-[a-z-]+|@emotion|dayjs)\//.test(id)) return 'antd';
          if (/node_modules\/(react|react-dom|react-router|scheduler|@tanstack)\//.test(id)) return 'react';
          if (/node_modules\/(i18next|react-i18next)\//.test(id)) return 'i18n';
          return 'vendor';
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/api', '/account', '/healthz', '/logos'].map((p) => [p, api])),
  },
});
