--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: larp_api_token_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_api_token_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_api_token_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_api_token_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_badge_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_badge_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = OLD.character_id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = OLD.character_id;
    RETURN NULL;
END $$;


--
-- Name: larp_badge_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_badge_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.character_id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = NEW.character_id;
    RETURN NULL;
END $$;


--
-- Name: larp_badge_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_badge_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.character_id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = NEW.character_id;
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = OLD.character_id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = OLD.character_id;
    RETURN NULL;
END $$;


--
-- Name: larp_character_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_character_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
    RETURN NULL;
END $$;


--
-- Name: larp_character_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_character_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = NEW.id;
    RETURN NULL;
END $$;


--
-- Name: larp_character_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_character_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = NEW.id;
    RETURN NULL;
END $$;


--
-- Name: larp_character_update_event(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_character_update_event() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
    RETURN NULL;
END $$;


--
-- Name: larp_character_update_sheet(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_character_update_sheet() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts';
    RETURN NULL;
END $$;


--
-- Name: larp_dismissed_conflict_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_dismissed_conflict_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_dismissed_conflict_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_dismissed_conflict_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_dismissed_conflict_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_dismissed_conflict_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_entry_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_entry_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = OLD.character_id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = OLD.character_id;
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts';
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
    RETURN NULL;
END $$;


--
-- Name: larp_entry_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_entry_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.character_id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = NEW.character_id;
    IF NOT NEW.stepped_on THEN UPDATE mark SET value = value + 1 WHERE name = 'conflicts'; END IF;
    RETURN NULL;
END $$;


--
-- Name: larp_entry_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_entry_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = NEW.character_id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = NEW.character_id;
    UPDATE event SET version = version + 1 WHERE id = (SELECT event_id FROM "character" WHERE id = OLD.character_id) RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE id = OLD.character_id;
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts';
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
    RETURN NULL;
END $$;


--
-- Name: larp_event_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_event_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'epoch';
    RETURN NULL;
END $$;


--
-- Name: larp_event_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_event_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'versions';
    RETURN NULL;
END $$;


--
-- Name: larp_event_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_event_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE event SET version = version + 1 WHERE id = NEW.id RETURNING version INTO raised;
    UPDATE "character" SET version = raised WHERE event_id = NEW.id;
    RETURN NULL;
END $$;


--
-- Name: larp_event_update_rules(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_event_update_rules() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'conflicts';
    RETURN NULL;
END $$;


--
-- Name: larp_event_update_version(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_event_update_version() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'versions';
    RETURN NULL;
END $$;


--
-- Name: larp_referee_event_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_referee_event_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_referee_event_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_referee_event_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_referee_event_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_referee_event_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_refused_entry_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_refused_entry_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'refusals';
    RETURN NULL;
END $$;


--
-- Name: larp_refused_entry_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_refused_entry_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'refusals';
    RETURN NULL;
END $$;


--
-- Name: larp_refused_entry_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_refused_entry_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'refusals';
    RETURN NULL;
END $$;


--
-- Name: larp_user_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_user_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_user_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_user_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_web_session_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_web_session_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


--
-- Name: larp_web_session_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.larp_web_session_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE raised integer;
BEGIN
    UPDATE mark SET value = value + 1 WHERE name = 'accounts';
    RETURN NULL;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: alembic_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alembic_version (
    version_num character varying(32) NOT NULL
);


--
-- Name: api_token; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_token (
    id integer NOT NULL,
    user_id integer NOT NULL,
    token_hash character varying(64) NOT NULL,
    label character varying(80) NOT NULL,
    created_at timestamp with time zone NOT NULL,
    revoked_at timestamp with time zone
);


--
-- Name: api_token_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.api_token_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: api_token_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.api_token_id_seq OWNED BY public.api_token.id;


--
-- Name: badge; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.badge (
    id integer NOT NULL,
    character_id integer NOT NULL,
    secret character varying(40),
    short_code character varying(12),
    issued_at timestamp with time zone NOT NULL,
    revoked_at timestamp with time zone,
    printed_at timestamp with time zone,
    secret_hash character varying(64) NOT NULL,
    short_code_hash character varying(64) NOT NULL
);


--
-- Name: badge_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.badge_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: badge_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.badge_id_seq OWNED BY public.badge.id;


--
-- Name: badge_lookup; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.badge_lookup (
    id integer NOT NULL,
    at timestamp with time zone NOT NULL,
    user_id integer,
    event_id integer,
    badge_id integer,
    presented character varying(80) NOT NULL,
    reason character varying(20) NOT NULL
);


--
-- Name: badge_lookup_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.badge_lookup_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: badge_lookup_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.badge_lookup_id_seq OWNED BY public.badge_lookup.id;


--
-- Name: character; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public."character" (
    id integer NOT NULL,
    event_id integer NOT NULL,
    player character varying(120) NOT NULL,
    name character varying(120) NOT NULL,
    faction character varying(120),
    tabletop json NOT NULL,
    larp json NOT NULL,
    created_at timestamp with time zone NOT NULL,
    player_secret character varying(40),
    withdrawn_at timestamp with time zone,
    present_at timestamp with time zone,
    version integer DEFAULT 0 NOT NULL,
    player_secret_hash character varying(64)
);


--
-- Name: character_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.character_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: character_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.character_id_seq OWNED BY public."character".id;


--
-- Name: dismissed_conflict; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dismissed_conflict (
    id integer NOT NULL,
    client_id character varying(36) NOT NULL,
    user_id integer NOT NULL,
    at timestamp with time zone NOT NULL
);


--
-- Name: dismissed_conflict_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.dismissed_conflict_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: dismissed_conflict_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.dismissed_conflict_id_seq OWNED BY public.dismissed_conflict.id;


--
-- Name: entry; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.entry (
    id integer NOT NULL,
    client_id character varying(36) NOT NULL,
    character_id integer NOT NULL,
    kind character varying(30) NOT NULL,
    at timestamp with time zone NOT NULL,
    sent_at timestamp with time zone,
    received_at timestamp with time zone NOT NULL,
    author_id integer,
    fields json NOT NULL,
    referee_at timestamp with time zone,
    stepped_on boolean DEFAULT false NOT NULL
);


--
-- Name: entry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.entry_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: entry_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.entry_id_seq OWNED BY public.entry.id;


--
-- Name: event; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.event (
    id integer NOT NULL,
    name character varying(120) NOT NULL,
    ruleset character varying(40) NOT NULL,
    settings json NOT NULL,
    created_at timestamp with time zone NOT NULL,
    faction_colours json DEFAULT '{}'::json NOT NULL,
    archived_at timestamp with time zone,
    version integer DEFAULT 0 NOT NULL
);


--
-- Name: event_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.event_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: event_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.event_id_seq OWNED BY public.event.id;


--
-- Name: heartbeat; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.heartbeat (
    name character varying(40) NOT NULL,
    at timestamp with time zone NOT NULL
);


--
-- Name: kept_fold; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.kept_fold (
    character_id integer NOT NULL,
    version integer NOT NULL,
    fingerprint character varying(64) NOT NULL,
    folded bytea NOT NULL
);


--
-- Name: login_attempt; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.login_attempt (
    id integer NOT NULL,
    username character varying(80) NOT NULL,
    address character varying(64) NOT NULL,
    at timestamp with time zone NOT NULL
);


--
-- Name: login_attempt_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.login_attempt_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: login_attempt_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.login_attempt_id_seq OWNED BY public.login_attempt.id;


--
-- Name: mark; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.mark (
    name character varying(20) NOT NULL,
    value integer DEFAULT 0 NOT NULL
);


--
-- Name: print_job; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.print_job (
    id integer NOT NULL,
    event_id integer NOT NULL,
    options json NOT NULL,
    status character varying(10) NOT NULL,
    done integer NOT NULL,
    total integer NOT NULL,
    path character varying(255),
    error character varying(255),
    created_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone,
    heartbeat_at timestamp with time zone,
    running_key character varying(64),
    skipped integer DEFAULT 0 NOT NULL
);


--
-- Name: print_job_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.print_job_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: print_job_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.print_job_id_seq OWNED BY public.print_job.id;


--
-- Name: referee_event; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.referee_event (
    user_id integer NOT NULL,
    event_id integer NOT NULL
);


--
-- Name: refused_entry; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.refused_entry (
    id integer NOT NULL,
    at timestamp with time zone NOT NULL,
    client_id character varying(36) NOT NULL,
    character_id integer NOT NULL,
    user_id integer,
    fields json NOT NULL,
    code character varying(40) NOT NULL,
    message character varying(400) NOT NULL,
    params json
);


--
-- Name: refused_entry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.refused_entry_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: refused_entry_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.refused_entry_id_seq OWNED BY public.refused_entry.id;


--
-- Name: sheet_change; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sheet_change (
    id integer NOT NULL,
    character_id integer NOT NULL,
    at timestamp with time zone NOT NULL,
    user_id integer,
    author character varying(80),
    source character varying(20) NOT NULL,
    before json,
    after json NOT NULL
);


--
-- Name: sheet_change_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.sheet_change_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: sheet_change_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.sheet_change_id_seq OWNED BY public.sheet_change.id;


--
-- Name: user; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public."user" (
    id integer NOT NULL,
    username character varying(80) NOT NULL,
    password_hash character varying(255) NOT NULL,
    role character varying(20) NOT NULL,
    active boolean NOT NULL,
    created_at timestamp with time zone NOT NULL,
    language character varying(5)
);


--
-- Name: user_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.user_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: user_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.user_id_seq OWNED BY public."user".id;


--
-- Name: web_session; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_session (
    id integer NOT NULL,
    key_hash character varying(64) NOT NULL,
    user_id integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    ended_at timestamp with time zone
);


--
-- Name: web_session_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.web_session_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: web_session_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.web_session_id_seq OWNED BY public.web_session.id;


--
-- Name: api_token id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_token ALTER COLUMN id SET DEFAULT nextval('public.api_token_id_seq'::regclass);


--
-- Name: badge id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge ALTER COLUMN id SET DEFAULT nextval('public.badge_id_seq'::regclass);


--
-- Name: badge_lookup id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge_lookup ALTER COLUMN id SET DEFAULT nextval('public.badge_lookup_id_seq'::regclass);


--
-- Name: character id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."character" ALTER COLUMN id SET DEFAULT nextval('public.character_id_seq'::regclass);


--
-- Name: dismissed_conflict id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dismissed_conflict ALTER COLUMN id SET DEFAULT nextval('public.dismissed_conflict_id_seq'::regclass);


--
-- Name: entry id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.entry ALTER COLUMN id SET DEFAULT nextval('public.entry_id_seq'::regclass);


--
-- Name: event id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event ALTER COLUMN id SET DEFAULT nextval('public.event_id_seq'::regclass);


--
-- Name: login_attempt id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.login_attempt ALTER COLUMN id SET DEFAULT nextval('public.login_attempt_id_seq'::regclass);


--
-- Name: print_job id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.print_job ALTER COLUMN id SET DEFAULT nextval('public.print_job_id_seq'::regclass);


--
-- Name: refused_entry id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refused_entry ALTER COLUMN id SET DEFAULT nextval('public.refused_entry_id_seq'::regclass);


--
-- Name: sheet_change id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_change ALTER COLUMN id SET DEFAULT nextval('public.sheet_change_id_seq'::regclass);


--
-- Name: user id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."user" ALTER COLUMN id SET DEFAULT nextval('public.user_id_seq'::regclass);


--
-- Name: web_session id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_session ALTER COLUMN id SET DEFAULT nextval('public.web_session_id_seq'::regclass);


--
-- Data for Name: alembic_version; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.alembic_version VALUES ('9e4b1d7a2c63');


--
-- Data for Name: api_token; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.api_token VALUES (1, 1, '68e3e19eeff2044b156571953b910f874f1708baeab32ab3fa2acdcbf2babb2b', 'script', '2026-12-08 02:09:20.179438+00', NULL);
INSERT INTO public.api_token VALUES (2, 2, 'fefbd5b27b2944bb9a1332bc48e3c1ee29609004c2ae3886cd361a5ee2b0fb6d', 'script', '2026-12-08 02:09:20.27868+00', NULL);


--
-- Data for Name: badge; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.badge VALUES (1, 1, '2TXP272YW4ZEUG9S3H54U9TE8A', '2A8-SKT-FH8', '2026-12-08 02:09:20.303613+00', NULL, NULL, '89569bd7cf3de50a915d63e79840a44233d4d340202eb3fdef1c52aa7bf6e4cb', '806ad06ed274611fca31fdf7d26cf0957740c36e1be2f246c3d2cc2bc30f9386');
INSERT INTO public.badge VALUES (2, 2, '5CYVUGQDDR8ZQYKZNQABRH4AAV', 'GSD-9ZA-WG2', '2026-12-08 02:09:20.310233+00', NULL, NULL, '1f385149f24399acb6d202bb622e5c5af66e21c55194b0f9bba61a5164de6015', 'ccd246e83d7fbd2cd5bd712f54e06c4987b06c3ddf2652ea3709b789244bbb8e');


--
-- Data for Name: badge_lookup; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: character; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public."character" VALUES (1, 1, 'Giulia Rossi', 'Dott.ssa Vera Lanz', 'Corporazione', '{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}', '{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "rules": [{"key": "stagger", "text": {"it": "A 0 punti vita si pu\u00f2 solo barcollare (1 metro per turno); un altro colpo: incosciente.", "en": "At 0 hit points, only stagger (1 metre a turn); one more blow: unconscious.", "es": "Con 0 puntos de vida, solo tambalearse (1 metro por turno); otro golpe: inconsciente."}}, {"key": "countdown", "text": {"it": "Incosciente: passati 10 minuti (600 turni) senza cure, morto.", "en": "Unconscious: dead after 10 minutes (600 turns) without care.", "es": "Inconsciente: muerto tras 10 minutos (600 turnos) sin cuidados."}}, {"key": "coup_de_grace", "text": {"it": "Colpo di grazia: mimato per almeno 3 secondi, uccide un incosciente.", "en": "Coup de gr\u00e2ce: mimed for at least 3 seconds, it kills an unconscious character.", "es": "Golpe de gracia: fingido durante al menos 3 segundos, mata a un inconsciente."}}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}', '2026-12-08 02:09:20.294164+00', '853GHPHUHZ9THRA9652RVY6YFS', NULL, NULL, 9, 'bfacf09ea048f294b73efc7754984f1151f3f02b94ba16e9778fc1d67e414dfa');
INSERT INTO public."character" VALUES (2, 1, 'Marco Bianchi', 'Ugo Ferri', 'Nomadi', '{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}', '{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "rules": [{"key": "stagger", "text": {"it": "A 0 punti vita si pu\u00f2 solo barcollare (1 metro per turno); un altro colpo: incosciente.", "en": "At 0 hit points, only stagger (1 metre a turn); one more blow: unconscious.", "es": "Con 0 puntos de vida, solo tambalearse (1 metro por turno); otro golpe: inconsciente."}}, {"key": "countdown", "text": {"it": "Incosciente: passati 10 minuti (600 turni) senza cure, morto.", "en": "Unconscious: dead after 10 minutes (600 turns) without care.", "es": "Inconsciente: muerto tras 10 minutos (600 turnos) sin cuidados."}}, {"key": "coup_de_grace", "text": {"it": "Colpo di grazia: mimato per almeno 3 secondi, uccide un incosciente.", "en": "Coup de gr\u00e2ce: mimed for at least 3 seconds, it kills an unconscious character.", "es": "Golpe de gracia: fingido durante al menos 3 segundos, mata a un inconsciente."}}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}', '2026-12-08 02:09:20.294164+00', 'R2ZAHAGD4J4F4W5X3FTTZJ46K7', NULL, NULL, 11, '291df1480daef460072a8cc43783d380ffeea625b1f40124cbfe10f72025275d');


--
-- Data for Name: dismissed_conflict; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: entry; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.entry VALUES (1, '00000000-0000-0000-0000-000000000064', 1, 'hit', '2026-12-08 01:19:20.318762+00', NULL, '2026-12-08 02:09:20.327159+00', 2, '{"id": "00000000-0000-0000-0000-000000000064", "kind": "hit", "at": "2026-12-08T01:19:20.318762Z", "damage": 1, "blows": 2, "pierce": false, "author": "referee"}', NULL, true);
INSERT INTO public.entry VALUES (2, '00000000-0000-0000-0000-000000000065', 1, 'status_on', '2026-12-08 01:29:20.318762+00', NULL, '2026-12-08 02:09:20.342401+00', 2, '{"id": "00000000-0000-0000-0000-000000000065", "kind": "status_on", "at": "2026-12-08T01:29:20.318762Z", "key": "paura", "author": "referee"}', NULL, true);
INSERT INTO public.entry VALUES (3, '00000000-0000-0000-0000-000000000066', 1, 'hit', '2026-12-08 01:39:20.318762+00', NULL, '2026-12-08 02:09:20.351798+00', 2, '{"id": "00000000-0000-0000-0000-000000000066", "kind": "hit", "at": "2026-12-08T01:39:20.318762Z", "damage": 1, "blows": 1, "pierce": false, "author": "referee"}', NULL, true);
INSERT INTO public.entry VALUES (4, '00000000-0000-0000-0000-0000000000c8', 2, 'spend_energy', '2026-12-08 01:24:20.318762+00', NULL, '2026-12-08 02:09:20.35852+00', 2, '{"id": "00000000-0000-0000-0000-0000000000c8", "kind": "spend_energy", "at": "2026-12-08T01:24:20.318762Z", "amount": 1, "advancement": "Colpo Caricato", "author": "referee"}', NULL, true);
INSERT INTO public.entry VALUES (5, '00000000-0000-0000-0000-0000000000c9', 2, 'hit', '2026-12-08 01:49:20.318762+00', NULL, '2026-12-08 02:09:20.366079+00', 2, '{"id": "00000000-0000-0000-0000-0000000000c9", "kind": "hit", "at": "2026-12-08T01:49:20.318762Z", "damage": 1, "blows": 3, "pierce": false, "author": "referee"}', NULL, true);


--
-- Data for Name: event; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.event VALUES (1, 'Historic event', 'ex-nihilo', '{"turn_seconds": 1, "secret": "9fc5192cea2e638c9a8979f1a4a700a4"}', '2026-12-08 02:09:20.282806+00', '{}', NULL, 11);


--
-- Data for Name: heartbeat; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.heartbeat VALUES ('healthz', '2026-12-08 02:09:19.723849+00');


--
-- Data for Name: kept_fold; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: login_attempt; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: mark; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.mark VALUES ('accounts', 0);
INSERT INTO public.mark VALUES ('conflicts', 0);
INSERT INTO public.mark VALUES ('epoch', 502472690);
INSERT INTO public.mark VALUES ('refusals', 0);
INSERT INTO public.mark VALUES ('versions', 12);


--
-- Data for Name: print_job; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: referee_event; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: refused_entry; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: sheet_change; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: user; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public."user" VALUES (1, 'organiser', 'scrypt:32768:8:1$018FMG4QyyFwUFWS$4bbf37f3a241d30d1c42004dfbc9a349b321ec80027ce65227de467955a79f73ab4605e0aebf83c4990f4569f3a21079b6b2ca6ee601083041ea699a4ab1fbd8', 'organiser', true, '2026-12-08 02:09:20.175511+00', NULL);
INSERT INTO public."user" VALUES (2, 'referee', 'scrypt:32768:8:1$2tFov7loOE43368A$834fcfdf6954616b041ae2e5e0f7906de3e46c81d1ee815a6c9ed2f4190c4b476dbab76c1f104f4f007ffad89872f313d411da7bcdcb89ea3d69f668fb87aff9', 'referee', true, '2026-12-08 02:09:20.276723+00', NULL);


--
-- Data for Name: web_session; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Name: api_token_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.api_token_id_seq', 2, true);


--
-- Name: badge_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.badge_id_seq', 2, true);


--
-- Name: badge_lookup_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.badge_lookup_id_seq', 1, false);


--
-- Name: character_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.character_id_seq', 2, true);


--
-- Name: dismissed_conflict_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.dismissed_conflict_id_seq', 1, false);


--
-- Name: entry_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.entry_id_seq', 5, true);


--
-- Name: event_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.event_id_seq', 1, true);


--
-- Name: login_attempt_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.login_attempt_id_seq', 1, false);


--
-- Name: print_job_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.print_job_id_seq', 1, false);


--
-- Name: refused_entry_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.refused_entry_id_seq', 1, false);


--
-- Name: sheet_change_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.sheet_change_id_seq', 1, false);


--
-- Name: user_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.user_id_seq', 2, true);


--
-- Name: web_session_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.web_session_id_seq', 1, false);


--
-- Name: alembic_version alembic_version_pkc; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alembic_version
    ADD CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num);


--
-- Name: api_token api_token_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_token
    ADD CONSTRAINT api_token_pkey PRIMARY KEY (id);


--
-- Name: api_token api_token_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_token
    ADD CONSTRAINT api_token_token_hash_key UNIQUE (token_hash);


--
-- Name: badge_lookup badge_lookup_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge_lookup
    ADD CONSTRAINT badge_lookup_pkey PRIMARY KEY (id);


--
-- Name: badge badge_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge
    ADD CONSTRAINT badge_pkey PRIMARY KEY (id);


--
-- Name: badge badge_secret_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge
    ADD CONSTRAINT badge_secret_key UNIQUE (secret);


--
-- Name: badge badge_short_code_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge
    ADD CONSTRAINT badge_short_code_key UNIQUE (short_code);


--
-- Name: character character_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."character"
    ADD CONSTRAINT character_pkey PRIMARY KEY (id);


--
-- Name: dismissed_conflict dismissed_conflict_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dismissed_conflict
    ADD CONSTRAINT dismissed_conflict_pkey PRIMARY KEY (id);


--
-- Name: entry entry_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.entry
    ADD CONSTRAINT entry_pkey PRIMARY KEY (id);


--
-- Name: event event_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.event
    ADD CONSTRAINT event_pkey PRIMARY KEY (id);


--
-- Name: heartbeat heartbeat_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.heartbeat
    ADD CONSTRAINT heartbeat_pkey PRIMARY KEY (name);


--
-- Name: kept_fold kept_fold_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.kept_fold
    ADD CONSTRAINT kept_fold_pkey PRIMARY KEY (character_id);


--
-- Name: login_attempt login_attempt_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.login_attempt
    ADD CONSTRAINT login_attempt_pkey PRIMARY KEY (id);


--
-- Name: mark mark_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mark
    ADD CONSTRAINT mark_pkey PRIMARY KEY (name);


--
-- Name: print_job print_job_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.print_job
    ADD CONSTRAINT print_job_pkey PRIMARY KEY (id);


--
-- Name: referee_event referee_event_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.referee_event
    ADD CONSTRAINT referee_event_pkey PRIMARY KEY (user_id, event_id);


--
-- Name: refused_entry refused_entry_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refused_entry
    ADD CONSTRAINT refused_entry_pkey PRIMARY KEY (id);


--
-- Name: sheet_change sheet_change_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_change
    ADD CONSTRAINT sheet_change_pkey PRIMARY KEY (id);


--
-- Name: dismissed_conflict uq_dismissed_conflict; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dismissed_conflict
    ADD CONSTRAINT uq_dismissed_conflict UNIQUE (client_id, user_id);


--
-- Name: entry uq_entry_client_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.entry
    ADD CONSTRAINT uq_entry_client_id UNIQUE (client_id);


--
-- Name: print_job uq_print_job_running_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.print_job
    ADD CONSTRAINT uq_print_job_running_key UNIQUE (running_key);


--
-- Name: user user_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."user"
    ADD CONSTRAINT user_pkey PRIMARY KEY (id);


--
-- Name: user user_username_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."user"
    ADD CONSTRAINT user_username_key UNIQUE (username);


--
-- Name: web_session web_session_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_session
    ADD CONSTRAINT web_session_key_hash_key UNIQUE (key_hash);


--
-- Name: web_session web_session_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_session
    ADD CONSTRAINT web_session_pkey PRIMARY KEY (id);


--
-- Name: ix_api_token_user_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_api_token_user_id ON public.api_token USING btree (user_id);


--
-- Name: ix_badge_character_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_badge_character_id ON public.badge USING btree (character_id);


--
-- Name: ix_badge_lookup_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_badge_lookup_at ON public.badge_lookup USING btree (at);


--
-- Name: ix_badge_lookup_event_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_badge_lookup_event_id ON public.badge_lookup USING btree (event_id);


--
-- Name: ix_badge_secret_hash; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_badge_secret_hash ON public.badge USING btree (secret_hash);


--
-- Name: ix_badge_short_code_hash; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_badge_short_code_hash ON public.badge USING btree (short_code_hash);


--
-- Name: ix_character_event_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_character_event_id ON public."character" USING btree (event_id);


--
-- Name: ix_character_event_version_link; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_character_event_version_link ON public."character" USING btree (event_id, version, player_secret_hash);


--
-- Name: ix_character_player_secret; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_character_player_secret ON public."character" USING btree (player_secret);


--
-- Name: ix_character_player_secret_hash; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_character_player_secret_hash ON public."character" USING btree (player_secret_hash);


--
-- Name: ix_entry_author_received; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_entry_author_received ON public.entry USING btree (author_id, received_at);


--
-- Name: ix_entry_character_row; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_entry_character_row ON public.entry USING btree (character_id, id);


--
-- Name: ix_login_attempt_address; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_login_attempt_address ON public.login_attempt USING btree (address);


--
-- Name: ix_login_attempt_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_login_attempt_at ON public.login_attempt USING btree (at);


--
-- Name: ix_login_attempt_username; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_login_attempt_username ON public.login_attempt USING btree (username);


--
-- Name: ix_print_job_event_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_print_job_event_id ON public.print_job USING btree (event_id);


--
-- Name: ix_referee_event_event_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_referee_event_event_id ON public.referee_event USING btree (event_id);


--
-- Name: ix_refused_entry_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_refused_entry_at ON public.refused_entry USING btree (at);


--
-- Name: ix_refused_entry_character_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_refused_entry_character_id ON public.refused_entry USING btree (character_id);


--
-- Name: ix_refused_entry_client_id; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_refused_entry_client_id ON public.refused_entry USING btree (client_id);


--
-- Name: ix_sheet_change_character_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_sheet_change_character_id ON public.sheet_change USING btree (character_id);


--
-- Name: ix_web_session_user_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_web_session_user_id ON public.web_session USING btree (user_id);


--
-- Name: uq_badge_active; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX uq_badge_active ON public.badge USING btree (character_id) WHERE (revoked_at IS NULL);


--
-- Name: api_token larp_api_token_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_api_token_delete AFTER DELETE ON public.api_token FOR EACH ROW EXECUTE FUNCTION public.larp_api_token_delete();


--
-- Name: api_token larp_api_token_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_api_token_update AFTER UPDATE ON public.api_token FOR EACH ROW EXECUTE FUNCTION public.larp_api_token_update();


--
-- Name: badge larp_badge_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_badge_delete AFTER DELETE ON public.badge FOR EACH ROW EXECUTE FUNCTION public.larp_badge_delete();


--
-- Name: badge larp_badge_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_badge_insert AFTER INSERT ON public.badge FOR EACH ROW EXECUTE FUNCTION public.larp_badge_insert();


--
-- Name: badge larp_badge_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_badge_update AFTER UPDATE ON public.badge FOR EACH ROW EXECUTE FUNCTION public.larp_badge_update();


--
-- Name: character larp_character_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_character_delete AFTER DELETE ON public."character" FOR EACH ROW EXECUTE FUNCTION public.larp_character_delete();


--
-- Name: character larp_character_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_character_insert AFTER INSERT ON public."character" FOR EACH ROW EXECUTE FUNCTION public.larp_character_insert();


--
-- Name: character larp_character_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_character_update AFTER UPDATE ON public."character" FOR EACH ROW WHEN ((new.version = old.version)) EXECUTE FUNCTION public.larp_character_update();


--
-- Name: character larp_character_update_event; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_character_update_event AFTER UPDATE OF event_id ON public."character" FOR EACH ROW WHEN ((new.event_id <> old.event_id)) EXECUTE FUNCTION public.larp_character_update_event();


--
-- Name: character larp_character_update_sheet; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_character_update_sheet AFTER UPDATE OF larp ON public."character" FOR EACH ROW EXECUTE FUNCTION public.larp_character_update_sheet();


--
-- Name: dismissed_conflict larp_dismissed_conflict_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_dismissed_conflict_delete AFTER DELETE ON public.dismissed_conflict FOR EACH ROW EXECUTE FUNCTION public.larp_dismissed_conflict_delete();


--
-- Name: dismissed_conflict larp_dismissed_conflict_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_dismissed_conflict_insert AFTER INSERT ON public.dismissed_conflict FOR EACH ROW EXECUTE FUNCTION public.larp_dismissed_conflict_insert();


--
-- Name: dismissed_conflict larp_dismissed_conflict_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_dismissed_conflict_update AFTER UPDATE ON public.dismissed_conflict FOR EACH ROW EXECUTE FUNCTION public.larp_dismissed_conflict_update();


--
-- Name: entry larp_entry_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_entry_delete AFTER DELETE ON public.entry FOR EACH ROW EXECUTE FUNCTION public.larp_entry_delete();


--
-- Name: entry larp_entry_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_entry_insert AFTER INSERT ON public.entry FOR EACH ROW EXECUTE FUNCTION public.larp_entry_insert();


--
-- Name: entry larp_entry_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_entry_update AFTER UPDATE ON public.entry FOR EACH ROW EXECUTE FUNCTION public.larp_entry_update();


--
-- Name: event larp_event_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_event_delete AFTER DELETE ON public.event FOR EACH ROW EXECUTE FUNCTION public.larp_event_delete();


--
-- Name: event larp_event_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_event_insert AFTER INSERT ON public.event FOR EACH ROW EXECUTE FUNCTION public.larp_event_insert();


--
-- Name: event larp_event_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_event_update AFTER UPDATE ON public.event FOR EACH ROW WHEN ((new.version = old.version)) EXECUTE FUNCTION public.larp_event_update();


--
-- Name: event larp_event_update_rules; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_event_update_rules AFTER UPDATE OF settings, ruleset ON public.event FOR EACH ROW EXECUTE FUNCTION public.larp_event_update_rules();


--
-- Name: event larp_event_update_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_event_update_version AFTER UPDATE OF version ON public.event FOR EACH ROW WHEN ((new.version <> old.version)) EXECUTE FUNCTION public.larp_event_update_version();


--
-- Name: referee_event larp_referee_event_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_referee_event_delete AFTER DELETE ON public.referee_event FOR EACH ROW EXECUTE FUNCTION public.larp_referee_event_delete();


--
-- Name: referee_event larp_referee_event_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_referee_event_insert AFTER INSERT ON public.referee_event FOR EACH ROW EXECUTE FUNCTION public.larp_referee_event_insert();


--
-- Name: referee_event larp_referee_event_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_referee_event_update AFTER UPDATE ON public.referee_event FOR EACH ROW EXECUTE FUNCTION public.larp_referee_event_update();


--
-- Name: refused_entry larp_refused_entry_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_refused_entry_delete AFTER DELETE ON public.refused_entry FOR EACH ROW EXECUTE FUNCTION public.larp_refused_entry_delete();


--
-- Name: refused_entry larp_refused_entry_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_refused_entry_insert AFTER INSERT ON public.refused_entry FOR EACH ROW EXECUTE FUNCTION public.larp_refused_entry_insert();


--
-- Name: refused_entry larp_refused_entry_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_refused_entry_update AFTER UPDATE ON public.refused_entry FOR EACH ROW EXECUTE FUNCTION public.larp_refused_entry_update();


--
-- Name: user larp_user_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_user_delete AFTER DELETE ON public."user" FOR EACH ROW EXECUTE FUNCTION public.larp_user_delete();


--
-- Name: user larp_user_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_user_update AFTER UPDATE ON public."user" FOR EACH ROW EXECUTE FUNCTION public.larp_user_update();


--
-- Name: web_session larp_web_session_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_web_session_delete AFTER DELETE ON public.web_session FOR EACH ROW EXECUTE FUNCTION public.larp_web_session_delete();


--
-- Name: web_session larp_web_session_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER larp_web_session_update AFTER UPDATE ON public.web_session FOR EACH ROW EXECUTE FUNCTION public.larp_web_session_update();


--
-- Name: api_token api_token_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_token
    ADD CONSTRAINT api_token_user_id_fkey FOREIGN KEY (user_id) REFERENCES public."user"(id);


--
-- Name: badge badge_character_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge
    ADD CONSTRAINT badge_character_id_fkey FOREIGN KEY (character_id) REFERENCES public."character"(id);


--
-- Name: badge_lookup badge_lookup_badge_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge_lookup
    ADD CONSTRAINT badge_lookup_badge_id_fkey FOREIGN KEY (badge_id) REFERENCES public.badge(id);


--
-- Name: badge_lookup badge_lookup_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge_lookup
    ADD CONSTRAINT badge_lookup_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.event(id);


--
-- Name: badge_lookup badge_lookup_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.badge_lookup
    ADD CONSTRAINT badge_lookup_user_id_fkey FOREIGN KEY (user_id) REFERENCES public."user"(id);


--
-- Name: character character_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."character"
    ADD CONSTRAINT character_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.event(id);


--
-- Name: dismissed_conflict dismissed_conflict_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dismissed_conflict
    ADD CONSTRAINT dismissed_conflict_user_id_fkey FOREIGN KEY (user_id) REFERENCES public."user"(id);


--
-- Name: entry entry_author_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.entry
    ADD CONSTRAINT entry_author_id_fkey FOREIGN KEY (author_id) REFERENCES public."user"(id);


--
-- Name: entry entry_character_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.entry
    ADD CONSTRAINT entry_character_id_fkey FOREIGN KEY (character_id) REFERENCES public."character"(id);


--
-- Name: kept_fold kept_fold_character_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.kept_fold
    ADD CONSTRAINT kept_fold_character_id_fkey FOREIGN KEY (character_id) REFERENCES public."character"(id) ON DELETE CASCADE;


--
-- Name: print_job print_job_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.print_job
    ADD CONSTRAINT print_job_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.event(id);


--
-- Name: referee_event referee_event_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.referee_event
    ADD CONSTRAINT referee_event_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.event(id);


--
-- Name: referee_event referee_event_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.referee_event
    ADD CONSTRAINT referee_event_user_id_fkey FOREIGN KEY (user_id) REFERENCES public."user"(id);


--
-- Name: refused_entry refused_entry_character_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refused_entry
    ADD CONSTRAINT refused_entry_character_id_fkey FOREIGN KEY (character_id) REFERENCES public."character"(id);


--
-- Name: refused_entry refused_entry_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refused_entry
    ADD CONSTRAINT refused_entry_user_id_fkey FOREIGN KEY (user_id) REFERENCES public."user"(id);


--
-- Name: sheet_change sheet_change_character_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_change
    ADD CONSTRAINT sheet_change_character_id_fkey FOREIGN KEY (character_id) REFERENCES public."character"(id);


--
-- Name: sheet_change sheet_change_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sheet_change
    ADD CONSTRAINT sheet_change_user_id_fkey FOREIGN KEY (user_id) REFERENCES public."user"(id);


--
-- Name: web_session web_session_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_session
    ADD CONSTRAINT web_session_user_id_fkey FOREIGN KEY (user_id) REFERENCES public."user"(id);


--
-- PostgreSQL database dump complete
--


