// The ask of a message: people often write it after a lead-in ("thanks, that worked. next thing on my list: ...",
// "sorry for the long message, it's been a week. ..."). The lead-in's words are not the ask: the search reads them
// at a low weight (engine.ts TUNING.lead), so they neither choose the skill nor dilute the confidence.

/** First words of a lead-in sentence: thanks, greetings, apologies, sighs, acknowledgements. */
const SOCIAL = new Set("thanks thank thx cheers sorry apologies hi hey hello morning ugh argh sigh ok okay alright great cool nice awesome perfect".split(" "));
/** First words of a sentence that turns to a new topic; only these may end a lead-in at a colon ("unrelated: ..."). */
const TURN = new Set("next unrelated different another also btw anyway quick following one".split(" "));
/** A lead-in sentence is short: a longer one likely carries the ask itself. */
const MAX_LEAD_WORDS = 10;

/**
 * The message split where its lead-in ends: `lead` is the run of short sentences at its start that each begin with a
 * social or topic-turn word (maybe ""), `ask` the rest. A message that is all lead-in is its own ask. Linear: each
 * sentence is read once, and reading stops at the first that is not a lead-in.
 */
export function splitLead(message: string): { lead: string; ask: string } {
  const re = /[.!?]+\s+|:\s+/g;
  let end = 0;
  for (let m = re.exec(message); m; m = re.exec(message)) {
    const words = message.slice(end, m.index).toLowerCase().match(/[a-z']+/g) ?? [];
    const first = words[0] ?? "";
    const cue = m[0].startsWith(":") ? TURN.has(first) : SOCIAL.has(first) || TURN.has(first);
    if (!cue || words.length > MAX_LEAD_WORDS) break;
    end = m.index + m[0].length;
  }
  const ask = message.slice(end);
  return end > 0 && ask.trim() ? { lead: message.slice(0, end), ask } : { lead: "", ask: message };
}
