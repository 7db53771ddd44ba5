import { authedProcedure, authorProcedure, createTRPCRouter } from "../../trpc";
import { noInput, procedures } from "../../procedures";
import * as h from "./playground.handler";
import { follow } from "./playground.handler";
import * as S from "./playground.schema";

// Viewers may open the page and read (they have no sessions of their own); starting, chatting and changing
// sessions needs the author role, checked here on the server.
export const playgroundRouter = createTRPCRouter({
  ...procedures(authedProcedure, h, {
    query: {
      options: noInput,
      list: noInput,
      get: S.ZSessionInput,
      listing: S.ZListingInput,
      turnListing: S.ZTurnListingInput,
      toolOutput: S.ZToolOutputInput,
    },
  }),
  // The one subscription (a turn's events as they come) is written out: the table serves queries and mutations.
  follow: authedProcedure.input(S.ZFollowInput).subscription(follow),
  ...procedures(authorProcedure, h, {
    mutation: {
      create: S.ZCreateInput,
      rename: S.ZRenameInput,
      remove: S.ZSessionInput,
      send: S.ZSendInput,
      replay: S.ZReplayInput,
      stop: S.ZSessionInput,
    },
  }),
});
