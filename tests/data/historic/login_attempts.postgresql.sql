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

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: alembic_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alembic_version (
    version_num character varying(32) NOT NULL
);


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
    created_at timestamp with time zone NOT NULL
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
    fields json NOT NULL
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
    created_at timestamp with time zone NOT NULL
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
-- Name: user; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public."user" (
    id integer NOT NULL,
    username character varying(80) NOT NULL,
    password_hash character varying(255) NOT NULL,
    role character varying(20) NOT NULL,
    token_hash character varying(64) NOT NULL,
    active boolean NOT NULL,
    created_at timestamp with time zone NOT NULL,
    session_epoch integer DEFAULT 0 NOT NULL
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
-- Name: character id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."character" ALTER COLUMN id SET DEFAULT nextval('public.character_id_seq'::regclass);


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
-- Name: user id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."user" ALTER COLUMN id SET DEFAULT nextval('public.user_id_seq'::regclass);


--
-- Data for Name: alembic_version; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.alembic_version VALUES ('cb0e5ae6661b');


--
-- Data for Name: character; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public."character" VALUES (1, 1, 'Giulia Rossi', 'Dott.ssa Vera Lanz', 'Corporazione', '{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}', '{"ruleset": "ex-nihilo", "player": "Giulia Rossi", "character": "Dott.ssa Vera Lanz", "faction": "Corporazione", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}', '2026-12-02 04:25:45.560564+00');
INSERT INTO public."character" VALUES (2, 1, 'Marco Bianchi', 'Ugo Ferri', 'Nomadi', '{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}, "skills": {"medicina": 3, "biologia": 2, "ricerca": 1}, "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "larp": true, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "larp": true, "text": "Il bersaglio subisce Paura."}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "deflection": 10, "absorption": 4, "max_equilibrio": 18}, "weapons": [{"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1}, {"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}], "notes": "Medico della Corporazione."}', '{"ruleset": "ex-nihilo", "player": "Marco Bianchi", "character": "Ugo Ferri", "faction": "Nomadi", "hp_max": 3, "ap_max": 3, "energy_max": 3, "energy_recovery_minutes": 20, "equipment": "pesante", "fascino": 33, "leadership": 39, "percezione": 30, "skill_slots": 5, "skills": [{"key": "medicina", "grade": 3, "name": {"it": "Medicina", "en": "Medicine", "es": "Medicina"}, "description": {"it": "la scienza che si occupa della salute del paziente. Comprende le discipline da laboratorio, le discipline chirurgiche, le discipline non chirurgiche, e molti tipi di medicina alternativa.", "en": "the science concerned with the patient''s health. It includes laboratory disciplines, surgical disciplines, non-surgical disciplines, and many kinds of alternative medicine.", "es": "la ciencia que se ocupa de la salud del paciente. Comprende las disciplinas de laboratorio, las disciplinas quir\u00fargicas, las disciplinas no quir\u00fargicas y muchos tipos de medicina alternativa."}}, {"key": "biologia", "grade": 2, "name": {"it": "Biologia", "en": "Biology", "es": "Biolog\u00eda"}, "description": {"it": "\u00e8 la scienza che studia tutto ci\u00f2 che \u00e8 vivo. La definizione di biologia presente in EX Nihilo accorpa diverse branche di biologia: cellulare, biotecnologia, ecologia, biologia evolutiva, epidemiologia, aerobiologia, anatomia, strutturale, forense, etologia, farmacologa, genetica, immunologia, tossicologia, virologia, micologia, morfologia, botanica, cronobiologia, biogeografia. Inoltre si hanno conoscenze di chimica organica e sopravvivenza.", "en": "it is the science that studies everything that is alive. The definition of biology used in EX Nihilo brings together several branches of biology: cellular, biotechnology, ecology, evolutionary biology, epidemiology, aerobiology, anatomy, structural, forensic, ethology, pharmacology, genetics, immunology, toxicology, virology, mycology, morphology, botany, chronobiology, biogeography. It also includes knowledge of organic chemistry and survival.", "es": "es la ciencia que estudia todo lo que est\u00e1 vivo. La definici\u00f3n de biolog\u00eda presente en EX Nihilo agrupa diversas ramas de la biolog\u00eda: celular, biotecnolog\u00eda, ecolog\u00eda, biolog\u00eda evolutiva, epidemiolog\u00eda, aerobiolog\u00eda, anatom\u00eda, estructural, forense, etolog\u00eda, farmacolog\u00eda, gen\u00e9tica, inmunolog\u00eda, toxicolog\u00eda, virolog\u00eda, micolog\u00eda, morfolog\u00eda, bot\u00e1nica, cronobiolog\u00eda, biogeograf\u00eda. Adem\u00e1s, incluye conocimientos de qu\u00edmica org\u00e1nica y supervivencia."}}, {"key": "ricerca", "grade": 1, "name": {"it": "Ricerca", "en": "Research", "es": "Investigaci\u00f3n"}, "description": {"it": "contiene una serie di discipline non direttamente connesse fra loro, ma accomunate dal concetto moderno di ricerca: investigare, hacking, scovare trappole, cartografia, navigazione, capacit\u00e0 di sopravvivere in ambienti selvaggi.", "en": "contains a series of disciplines not directly connected to one another, but united by the modern concept of research: investigating, hacking, finding traps, cartography, navigation, the ability to survive in wild environments.", "es": "contiene una serie de disciplinas no directamente relacionadas entre s\u00ed, pero unidas por el concepto moderno de investigaci\u00f3n: investigar, hacking, descubrir trampas, cartograf\u00eda, navegaci\u00f3n, capacidad de sobrevivir en entornos salvajes."}}], "armour": {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}, "weapons": [{"name": "Pistola", "kind": "distanza", "hands": 1}, {"name": "Coltello", "kind": "mischia", "hands": 1}], "statuses": [{"key": "dolore", "turns": 3}, {"key": "paura", "turns": 3}, {"key": "percepire_alle_spalle", "turns": 0}, {"key": "a_terra", "turns": 1}, {"key": "stordimento", "turns": 5}, {"key": "invisibile", "turns": null}, {"key": "intangibile", "turns": null}, {"key": "ammaliamento", "turns": 60}, {"key": "paralisi", "turns": 5}, {"key": "incosciente", "turns": 600}], "notes": "Medico della Corporazione.", "advancements": [{"name": "Colpo Caricato", "energy_cost": 1, "passive": false, "text": "Con un''arma da mischia a due mani sbilancia l''avversario (difficolt\u00e0 50)."}, {"name": "Sguardo del Vuoto", "energy_cost": 2, "passive": false, "text": "Il bersaglio subisce Paura."}], "warnings": [], "tables": {"attributes": "house default", "armour": "house default", "statuses": "house default", "skills": "house default"}}', '2026-12-02 04:25:45.560564+00');


--
-- Data for Name: entry; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.entry VALUES (1, '00000000-0000-0000-0000-000000000064', 1, 'hit', '2026-12-02 03:35:45.623022+00', NULL, '2026-12-02 04:25:45.638556+00', 2, '{"id": "00000000-0000-0000-0000-000000000064", "kind": "hit", "at": "2026-12-02T03:35:45.623022Z", "damage": 1, "blows": 2, "pierce": false, "author": "referee"}');
INSERT INTO public.entry VALUES (2, '00000000-0000-0000-0000-000000000065', 1, 'status_on', '2026-12-02 03:45:45.623022+00', NULL, '2026-12-02 04:25:45.757717+00', 2, '{"id": "00000000-0000-0000-0000-000000000065", "kind": "status_on", "at": "2026-12-02T03:45:45.623022Z", "key": "paura", "author": "referee"}');
INSERT INTO public.entry VALUES (3, '00000000-0000-0000-0000-000000000066', 1, 'hit', '2026-12-02 03:55:45.623022+00', NULL, '2026-12-02 04:25:46.172283+00', 2, '{"id": "00000000-0000-0000-0000-000000000066", "kind": "hit", "at": "2026-12-02T03:55:45.623022Z", "damage": 1, "blows": 1, "pierce": false, "author": "referee"}');
INSERT INTO public.entry VALUES (4, '00000000-0000-0000-0000-0000000000c8', 2, 'spend_energy', '2026-12-02 03:40:45.623022+00', NULL, '2026-12-02 04:25:46.242561+00', 2, '{"id": "00000000-0000-0000-0000-0000000000c8", "kind": "spend_energy", "at": "2026-12-02T03:40:45.623022Z", "amount": 1, "advancement": "Colpo Caricato", "author": "referee"}');
INSERT INTO public.entry VALUES (5, '00000000-0000-0000-0000-0000000000c9', 2, 'hit', '2026-12-02 04:05:45.623022+00', NULL, '2026-12-02 04:25:46.319368+00', 2, '{"id": "00000000-0000-0000-0000-0000000000c9", "kind": "hit", "at": "2026-12-02T04:05:45.623022Z", "damage": 1, "blows": 3, "pierce": false, "author": "referee"}');


--
-- Data for Name: event; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.event VALUES (1, 'Historic event', 'ex-nihilo', '{}', '2026-12-02 04:25:45.510335+00');


--
-- Data for Name: login_attempt; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: user; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public."user" VALUES (1, 'organiser', 'scrypt:32768:8:1$8ZHQ1iCOYQtIrtWu$051b5eeb7b8739cc7627e6d504451a398e09a7197748cfb7c05c86f84e1f0fa446aaac9c416b1b88816c2b715e0bdb170eedc24360bddfb0e16711357a2dbd10', 'organiser', 'b0157398d535f159b29d7e036ef45eff87024f2a2b2b64a4382e9eb3025cc653', true, '2026-12-02 04:25:44.988346+00', 0);
INSERT INTO public."user" VALUES (2, 'referee', 'scrypt:32768:8:1$3yugnHprBDpsH25L$34535eb7feff6632add965dcba8c0221ff7fd86d393f4951999b7f7cb2ff92e93fa45c31ad5f40353620297d1e89565887b3554af10e2db11e3e2e772ad142d6', 'referee', '812c7edd20c732310d2165a9bc0b5a44e9177160f32c52e5209664500ae46596', true, '2026-12-02 04:25:45.457024+00', 0);


--
-- Name: character_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.character_id_seq', 2, true);


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
-- Name: user_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.user_id_seq', 2, true);


--
-- Name: alembic_version alembic_version_pkc; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alembic_version
    ADD CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num);


--
-- Name: character character_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."character"
    ADD CONSTRAINT character_pkey PRIMARY KEY (id);


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
-- Name: login_attempt login_attempt_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.login_attempt
    ADD CONSTRAINT login_attempt_pkey PRIMARY KEY (id);


--
-- Name: entry uq_entry_client_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.entry
    ADD CONSTRAINT uq_entry_client_id UNIQUE (client_id);


--
-- Name: user user_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."user"
    ADD CONSTRAINT user_pkey PRIMARY KEY (id);


--
-- Name: user user_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."user"
    ADD CONSTRAINT user_token_hash_key UNIQUE (token_hash);


--
-- Name: user user_username_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."user"
    ADD CONSTRAINT user_username_key UNIQUE (username);


--
-- Name: ix_character_event_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_character_event_id ON public."character" USING btree (event_id);


--
-- Name: ix_entry_character_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_entry_character_id ON public.entry USING btree (character_id);


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
-- Name: character character_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public."character"
    ADD CONSTRAINT character_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.event(id);


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
-- PostgreSQL database dump complete
--


