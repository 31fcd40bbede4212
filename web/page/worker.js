// The page's worker: runs the library (WebAssembly) off the page's thread. A request
// {id, text, rules} is answered question by question, {id, question, answer} each; the page
// drops answers of an older request (and restarts a worker still busy with one).
import init, { ask, builtins } from './ladders_web.js';

const QUESTIONS = ['board', 'expect', 'shortest', 'moments', 'distribution', 'race', 'heat'];
const ready = init();

onmessage = async (event) => {
  await ready;
  const { id, kind, text, rules } = event.data;
  if (kind === 'builtins') {
    postMessage({ kind, boards: JSON.parse(builtins()) });
    return;
  }
  for (const question of QUESTIONS) {
    const started = performance.now();
    const answer = JSON.parse(ask(question, text, rules));
    postMessage({ id, question, answer, ms: performance.now() - started });
    if (question === 'board' && answer.error) break;
  }
  postMessage({ id, done: true });
};
