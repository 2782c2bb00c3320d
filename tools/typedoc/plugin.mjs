// TypeDoc plugin for `npm run docs` (typedoc.json "plugin"): a variable whose initializer is an
// expression (e.g. streamGlsl, built from a GLSL file) is shown as `name: type`, not `name: type = ...`.
import { Converter, ReflectionKind } from 'typedoc';

export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of context.project.getReflectionsByKind(ReflectionKind.Variable)) {
      if (reflection.defaultValue === '...') reflection.defaultValue = undefined;
    }
  });
}
