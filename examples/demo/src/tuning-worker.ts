// The tuning page's worker: engine.tune({ worker }) posts its request here, and serveTuning() runs the
// samples on a WebGL2 context of an OffscreenCanvas of this worker's own, then posts the profile back.
// That is all a tune worker needs; the page's engine takes the profile only if this context reports
// the same renderer and glcompact version.
import { serveTuning } from 'glcompact';

serveTuning();
