// The page's tune worker (?tuneIn=worker): all an app's worker script needs.
import { serveTuning } from 'glcompact';

serveTuning();
