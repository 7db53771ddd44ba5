import { authedProcedure, authorProcedure, createTRPCRouter } from "../../trpc";
import {
  createHandler,
  followHandler,
  getHandler,
  listHandler,
  listingHandler,
  optionsHandler,
  removeHandler,
  renameHandler,
  replayHandler,
  sendHandler,
  stopHandler,
} from "./playground.handler";
import { ZCreateInput, ZFollowInput, ZListingInput, ZRenameInput, ZReplayInput, ZSendInput, ZSessionInput } from "./playground.schema";

// Viewers may open the page and read (they have no sessions of their own); starting, chatting and changing
// sessions needs the author role, checked here on the server.
export const playgroundRouter = createTRPCRouter({
  options: authedProcedure.query(optionsHandler),
  list: authedProcedure.query(listHandler),
  get: authedProcedure.input(ZSessionInput).query(getHandler),
  listing: authedProcedure.input(ZListingInput).query(listingHandler),
  follow: authedProcedure.input(ZFollowInput).subscription(followHandler),
  create: authorProcedure.input(ZCreateInput).mutation(createHandler),
  rename: authorProcedure.input(ZRenameInput).mutation(renameHandler),
  remove: authorProcedure.input(ZSessionInput).mutation(removeHandler),
  send: authorProcedure.input(ZSendInput).mutation(sendHandler),
  replay: authorProcedure.input(ZReplayInput).mutation(replayHandler),
  stop: authorProcedure.input(ZSessionInput).mutation(stopHandler),
});
