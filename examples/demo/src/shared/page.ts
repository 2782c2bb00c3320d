// What every demo page does the same way: get a WebGL2 context, make the engine, report errors.
import { createEngine, type Engine } from 'glcompact';

export function webgl2(canvas: HTMLCanvasElement, attributes?: WebGLContextAttributes): WebGL2RenderingContext {
  const gl = canvas.getContext('webgl2', attributes);
  if (!gl) throw new Error('This browser gives no WebGL2 context; the glcompact demos need one.');
  return gl;
}

export function engineOn(canvas: HTMLCanvasElement, attributes?: WebGLContextAttributes): { gl: WebGL2RenderingContext; engine: Engine } {
  const gl = webgl2(canvas, attributes);
  return { gl, engine: createEngine(gl) };
}

/** Shows an error on the page (and in the console, where the page tests look for it). */
export function showError(error: unknown): void {
  const message = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  console.error(error);
  let box = document.getElementById('errors');
  if (!box) {
    box = document.createElement('div');
    box.id = 'errors';
    document.querySelector('main')?.prepend(box);
  }
  const item = document.createElement('div');
  item.className = 'error-box';
  item.textContent = message;
  box.append(item);
}

export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`page is missing #${id}`);
  return found as T;
}

export const nextFrame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()));
export const yieldToBrowser = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
