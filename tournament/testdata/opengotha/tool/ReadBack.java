// ReadBack is gobot's test driver for OpenGotha 3.51 (not OpenGotha code:
// it only calls OpenGotha's classes). It opens OpenGotha tournament files
// with OpenGotha's own import, ExternalDocument.importTournamentFromXMLFile,
// the one behind Tournament..Open, and prints what OpenGotha then holds, one
// line per fact, sorted, so that gobot's tests can compare the files gobot
// writes with what OpenGotha reads from them without running Java:
//
//	java -cp <opengotha classes>:. ReadBack file.xml... > file.readback
//
// With "pair", it pairs the next round of each file as OpenGotha's
// Games..Pair window does and prints the pairing.
//
// With "defaults", it instead saves the XML of new empty McMahon, Swiss and
// Cup tournaments (the parameter sets OpenGotha fills in) into the directory
// given, for comparing with the ones gobot writes.
//
// See README.md beside it for how to build and run it.

import info.vannier.gotha.*;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;

public class ReadBack {
    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("defaults")) {
            defaults(new File(args[1]));
            System.exit(0);
        }
        if (args.length >= 1 && args[0].equals("pair")) {
            for (int i = 1; i < args.length; i++) {
                pair(new File(args[i]));
            }
            System.exit(0);
        }
        for (String a : args) {
            readBack(new File(a));
        }
        // A Tournament is an RMI object whose listener keeps the JVM alive.
        System.exit(0);
    }

    static void readBack(File f) throws Exception {
        Tournament t = new Tournament();
        ExternalDocument.importTournamentFromXMLFile(f, t, true, true, true, false, false);
        t.setLastTournamentModificationTime(System.currentTimeMillis());
        TournamentParameterSet tps = t.getTournamentParameterSet();
        GeneralParameterSet gps = tps.getGeneralParameterSet();
        HandicapParameterSet hps = tps.getHandicapParameterSet();
        PairingParameterSet paiPS = tps.getPairingParameterSet();
        ArrayList<String> out = new ArrayList<>();

        String type = "undefined";
        switch (tps.tournamentType()) {
            case TournamentParameterSet.TYPE_MCMAHON: type = "mcmahon"; break;
            case TournamentParameterSet.TYPE_SWISS: type = "swiss"; break;
            case TournamentParameterSet.TYPE_SWISSCAT: type = "swisscat"; break;
            case TournamentParameterSet.TYPE_CUP: type = "cup"; break;
        }
        out.add("0 system " + type);
        out.add("0 rounds " + gps.getNumberOfRounds());
        out.add("0 name " + gps.getName());
        out.add("0 shortName " + gps.getShortName());
        out.add("0 location " + gps.getLocation());
        out.add("0 director " + gps.getDirector());
        out.add("0 dates " + new java.text.SimpleDateFormat("yyyy-MM-dd").format(gps.getBeginDate())
                + " " + new java.text.SimpleDateFormat("yyyy-MM-dd").format(gps.getEndDate()));
        out.add("0 size " + gps.getStrSize());
        out.add("0 komi " + gps.getStrKomi());
        String[] overtime = {"?", "SUDDENDEATH", "STDBYOYOMI", "CANBYOYOMI", "FISCHER"};
        out.add("0 time " + gps.getBasicTime() + " " + overtime[gps.getComplementaryTimeSystem()] + " " + gps.getStdByoYomiTime()
                + " " + gps.getNbMovesCanTime() + " " + gps.getCanByoYomiTime() + " " + gps.getFischerTime()
                + " internet=" + gps.isBInternet());
        out.add("0 mcmahon bar=" + Player.convertIntToKD(gps.getGenMMBar()) + " floor=" + Player.convertIntToKD(gps.getGenMMFloor())
                + " zero=" + Player.convertIntToKD(gps.getGenMMZero()));
        out.add("0 points nbwAbsent=" + gps.getGenNBW2ValueAbsent() + " nbwBye=" + gps.getGenNBW2ValueBye()
                + " mmsAbsent=" + gps.getGenMMS2ValueAbsent() + " mmsBye=" + gps.getGenMMS2ValueBye()
                + " roundDown=" + gps.isGenRoundDownNBWMMS() + " notPlayedHalf=" + gps.isGenCountNotPlayedGamesAsHalfPoint()
                + " categories=" + gps.getNumberOfCategories());
        out.add("0 handicap basedOnMMS=" + hps.isHdBasedOnMMS() + " noHdAbove=" + Player.convertIntToKD(hps.getHdNoHdRankThreshold())
                + " correction=" + hps.getHdCorrection() + " ceiling=" + hps.getHdCeiling());
        StringBuilder crit = new StringBuilder("0 placement");
        for (int c : tps.getPlacementParameterSet().getPlaCriteria()) {
            crit.append(" ").append(PlacementParameterSet.criterionLongName(c));
        }
        out.add(crit.toString());
        out.add("0 pairing dupl=" + paiPS.getPaiBaAvoidDuplGame() + " random=" + paiPS.getPaiBaRandom()
                + " deterministic=" + paiPS.isPaiBaDeterministic() + " wb=" + paiPS.getPaiBaBalanceWB()
                + " mixCat=" + paiPS.getPaiMaAvoidMixingCategories() + " scoreDiff=" + paiPS.getPaiMaMinimizeScoreDifference()
                + " dudd=" + paiPS.getPaiMaDUDDWeight() + " compensate=" + paiPS.isPaiMaCompensateDUDD()
                + " upper=" + paiPS.getPaiMaDUDDUpperMode() + " lower=" + paiPS.getPaiMaDUDDLowerMode()
                + " seeding=" + paiPS.getPaiMaMaximizeSeeding() + " lastRoundSeed1=" + paiPS.getPaiMaLastRoundForSeedSystem1()
                + " seed1=" + paiPS.getPaiMaSeedSystem1() + " seed2=" + paiPS.getPaiMaSeedSystem2()
                + " add1=" + paiPS.getPaiMaAdditionalPlacementCritSystem1() + " add2=" + paiPS.getPaiMaAdditionalPlacementCritSystem2()
                + " barThreshold=" + paiPS.isPaiSeBarThresholdActive() + " rankThreshold=" + paiPS.getPaiSeRankThreshold()
                + " nbWinsThreshold=" + paiPS.isPaiSeNbWinsThresholdActive() + " defSec=" + paiPS.getPaiSeDefSecCrit()
                + " minHd=" + paiPS.getPaiSeMinimizeHandicap() + " geo=" + paiPS.getPaiSeAvoidSameGeo()
                + " country=" + paiPS.getPaiSePreferMMSDiffRatherThanSameCountry()
                + " club=" + paiPS.getPaiSePreferMMSDiffRatherThanSameClub()
                + " nx1=" + paiPS.getPaiStandardNX1Factor());

        for (Player p : t.playersList()) {
            StringBuilder part = new StringBuilder();
            for (boolean b : p.getParticipating()) {
                part.append(b ? '1' : '0');
            }
            out.add("1 player " + p.getKeyString() + " name=" + p.getName() + " firstName=" + p.getFirstName()
                    + " rank=" + Player.convertIntToKD(p.getRank()) + " rating=" + p.getRating()
                    + " club=" + p.getClub() + " country=" + p.getCountry()
                    + " smms=" + p.getSmmsCorrection() + " participating=" + part);
        }
        for (Game g : t.gamesList()) {
            out.add(String.format("2 round %02d table %04d white=%s black=%s handicap=%d result=%s knownColor=%b",
                    g.getRoundNumber() + 1, g.getTableNumber() + 1,
                    g.getWhitePlayer().getKeyString(), g.getBlackPlayer().getKeyString(),
                    g.getHandicap(), result(g.getResult()), g.isKnownColor()));
        }
        Player[] byes = t.getByePlayers();
        for (int r = 0; r < byes.length; r++) {
            if (byes[r] != null) {
                out.add(String.format("3 round %02d bye %s", r + 1, byes[r].getKeyString()));
            }
        }
        Collections.sort(out);
        System.out.println("# " + f.getName());
        for (String s : out) {
            System.out.println(s.substring(2));
        }
    }

    // pair opens a file and pairs its next round as the Games..Pair window
    // does when all its pairable players are selected: the players who take
    // part in the round, in score order; a bye chosen by chooseAByePlayer
    // when their number is odd; then makeAutomaticPairing. It prints the
    // games (white, black, handicap) and the bye.
    static void pair(File f) throws Exception {
        Tournament t = new Tournament();
        ExternalDocument.importTournamentFromXMLFile(f, t, true, true, true, false, false);
        int round = 0;
        for (Game g : t.gamesList()) {
            round = Math.max(round, g.getRoundNumber() + 1);
        }
        Player[] byes = t.getByePlayers();
        for (int r = 0; r < byes.length; r++) {
            if (byes[r] != null) round = Math.max(round, r + 1);
        }
        t.setLastTournamentModificationTime(System.currentTimeMillis());
        ArrayList<Player> pairable = t.alNotPairedPlayers(round);
        ArrayList<Player> toPair = new ArrayList<>();
        for (ScoredPlayer sp : t.orderedScoredPlayersList(round - 1, t.getTournamentParameterSet().getPlacementParameterSet())) {
            for (Player p : pairable) {
                if (p.hasSameKeyString(sp)) toPair.add(p);
            }
        }
        ArrayList<String> out = new ArrayList<>();
        if (toPair.size() % 2 == 1) {
            t.chooseAByePlayer(toPair, round);
            Player bye = t.getByePlayer(round);
            toPair.removeIf(p -> p.hasSameKeyString(bye));
            out.add("bye " + bye.getKeyString());
        }
        t.setLastTournamentModificationTime(System.currentTimeMillis());
        for (Game g : t.makeAutomaticPairing(toPair, round)) {
            out.add("game " + g.getWhitePlayer().getKeyString() + " " + g.getBlackPlayer().getKeyString() + " h" + g.getHandicap());
        }
        Collections.sort(out);
        System.out.println("# " + f.getName() + " round " + (round + 1));
        for (String s : out) {
            System.out.println(s);
        }
    }

    static String result(int r) {
        String s = "UNKNOWN";
        switch (r % Game.RESULT_BYDEF) {
            case Game.RESULT_WHITEWINS: s = "WHITEWINS"; break;
            case Game.RESULT_BLACKWINS: s = "BLACKWINS"; break;
            case Game.RESULT_EQUAL: s = "EQUAL"; break;
            case Game.RESULT_BOTHLOSE: s = "BOTHLOSE"; break;
            case Game.RESULT_BOTHWIN: s = "BOTHWIN"; break;
        }
        return r >= Game.RESULT_BYDEF ? s + "_BYDEF" : s;
    }

    static void defaults(File dir) throws Exception {
        String[] names = {"mcmahon", "swiss", "cup"};
        for (String n : names) {
            TournamentParameterSet tps = new TournamentParameterSet();
            Date d = new Date();
            tps.initBase(n, n, "", "", d, d, 5, 1);
            switch (n) {
                case "mcmahon": tps.initForMM(); break;
                case "swiss": tps.initForSwiss(); break;
                case "cup": tps.initForCup(); break;
            }
            TeamTournamentParameterSet ttps = new TeamTournamentParameterSet();
            ttps.init();
            Tournament t = new Tournament();
            t.setTournamentParameterSet(tps);
            t.setTeamTournamentParameterSet(ttps);
            ExternalDocument.generateXMLFile(t, new File(dir, n + ".xml"));
        }
    }
}
