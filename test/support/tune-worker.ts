// The worker script of test/tune-worker.test.ts: what an app's tune.worker.js holds.
import { serveTuning } from '../../src/index.js';

serveTuning();
