import { defineConfig } from 'vitest/config';
import { glslVitePlugin } from './scripts/glsl-loader.mjs';

export default defineConfig({
  plugins: [glslVitePlugin()],
  test: {
    // headless-gl loads its native addon once per process: GPU tests run in forked processes.
    pool: 'forks',
    include: ['test/**/*.test.{ts,js}'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
