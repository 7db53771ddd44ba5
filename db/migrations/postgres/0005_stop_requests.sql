CREATE TABLE "stop_requests" (
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" bigint NOT NULL,
	CONSTRAINT "stop_requests_kind_target_pk" PRIMARY KEY("kind","target")
);
