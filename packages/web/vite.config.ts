import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { frameIcons } from './frame-icons';
import { precompress } from './precompress';

const api = 'http://localhost:8000';

export default defineConfig({
  plugins: [react(), frameIcons(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // .vite/manifest.json: the server names a public page's own chunks in its head (plugins/web.ts).
    manifest: true,
    rollupOptions: {
      output: {
        /**
         * Libraries in chunks of their own that browsers cache across releases of our code. Public
         * pages load react, i18n and icon-paths only (under 170 KB compressed with our code, checked
         * by e2e/shell.spec.ts); Ant Design with its icons, dayjs and its other dependencies (drawn
         * into its chunk) and zod come with the personal centre and the admin pages.
         */
        manualChunks(id, { getModuleInfo }) {
          if (!id.includes('/node_modules/')) return undefined;
          // Icon paths our own components draw (no Ant Design needed) stay apart from the rest of its icons.
          if (id.includes('/node_modules/@ant-design/icons-svg/')) {
            return getModuleInfo(id)?.importers.some((importer) => !importer.includes('/node_modules/')) ? 'icon-paths' : 'antd';
          }
          if (/\/node_modules\/(antd|@ant-design|@rc-component|rc-[a-z-]+|@emotion|dayjs)\//.test(id)) return 'antd';
          if (/\/node_modules\/(react|react-dom|react-router|scheduler|@tanstack)\//.test(id)) return 'react';
          if (/\/node_modules\/(i18next|react-i18next)\//.test(id)) return 'i18n';
          if (id.includes('/node_modules/zod/')) return 'zod';
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/api', '/account', '/healthz', '/logos'].map((p) => [p, api])),
  },
});
