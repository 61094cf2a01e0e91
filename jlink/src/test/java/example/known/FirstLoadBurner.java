package example.known;

/**
 * A call of 50 ms whose first run loads and instruments a class: {@code burn} touches
 * {@link Parts} (120 small methods, for tiprobe to instrument as the class loads, inside the call),
 * then spins for 50 ms by the clock. Untraced, the load takes well under a millisecond: each traced
 * call of {@code burn} should last 50 ms, whatever instrumenting {@code Parts} cost.
 *
 * <p>Usage: {@code FirstLoadBurner <calls>}; prints {@code burned <calls>} at the end.
 */
public final class FirstLoadBurner {
    static final class Parts {
        static int step0(int x) { return x % 3 == 0 ? x / 3 : x * 2 + 0; }
        static int step1(int x) { return x % 4 == 0 ? x / 4 : x * 3 + 1; }
        static int step2(int x) { return x % 5 == 0 ? x / 5 : x * 4 + 2; }
        static int step3(int x) { return x % 6 == 0 ? x / 6 : x * 5 + 3; }
        static int step4(int x) { return x % 7 == 0 ? x / 7 : x * 6 + 4; }
        static int step5(int x) { return x % 8 == 0 ? x / 8 : x * 7 + 5; }
        static int step6(int x) { return x % 9 == 0 ? x / 9 : x * 8 + 6; }
        static int step7(int x) { return x % 10 == 0 ? x / 10 : x * 2 + 7; }
        static int step8(int x) { return x % 11 == 0 ? x / 11 : x * 3 + 8; }
        static int step9(int x) { return x % 12 == 0 ? x / 12 : x * 4 + 9; }
        static int step10(int x) { return x % 13 == 0 ? x / 13 : x * 5 + 10; }
        static int step11(int x) { return x % 14 == 0 ? x / 14 : x * 6 + 11; }
        static int step12(int x) { return x % 15 == 0 ? x / 15 : x * 7 + 12; }
        static int step13(int x) { return x % 16 == 0 ? x / 16 : x * 8 + 13; }
        static int step14(int x) { return x % 17 == 0 ? x / 17 : x * 2 + 14; }
        static int step15(int x) { return x % 18 == 0 ? x / 18 : x * 3 + 15; }
        static int step16(int x) { return x % 19 == 0 ? x / 19 : x * 4 + 16; }
        static int step17(int x) { return x % 20 == 0 ? x / 20 : x * 5 + 17; }
        static int step18(int x) { return x % 21 == 0 ? x / 21 : x * 6 + 18; }
        static int step19(int x) { return x % 22 == 0 ? x / 22 : x * 7 + 19; }
        static int step20(int x) { return x % 23 == 0 ? x / 23 : x * 8 + 20; }
        static int step21(int x) { return x % 24 == 0 ? x / 24 : x * 2 + 21; }
        static int step22(int x) { return x % 25 == 0 ? x / 25 : x * 3 + 22; }
        static int step23(int x) { return x % 26 == 0 ? x / 26 : x * 4 + 23; }
        static int step24(int x) { return x % 27 == 0 ? x / 27 : x * 5 + 24; }
        static int step25(int x) { return x % 28 == 0 ? x / 28 : x * 6 + 25; }
        static int step26(int x) { return x % 29 == 0 ? x / 29 : x * 7 + 26; }
        static int step27(int x) { return x % 30 == 0 ? x / 30 : x * 8 + 27; }
        static int step28(int x) { return x % 31 == 0 ? x / 31 : x * 2 + 28; }
        static int step29(int x) { return x % 32 == 0 ? x / 32 : x * 3 + 29; }
        static int step30(int x) { return x % 33 == 0 ? x / 33 : x * 4 + 30; }
        static int step31(int x) { return x % 34 == 0 ? x / 34 : x * 5 + 31; }
        static int step32(int x) { return x % 35 == 0 ? x / 35 : x * 6 + 32; }
        static int step33(int x) { return x % 36 == 0 ? x / 36 : x * 7 + 33; }
        static int step34(int x) { return x % 37 == 0 ? x / 37 : x * 8 + 34; }
        static int step35(int x) { return x % 38 == 0 ? x / 38 : x * 2 + 35; }
        static int step36(int x) { return x % 39 == 0 ? x / 39 : x * 3 + 36; }
        static int step37(int x) { return x % 40 == 0 ? x / 40 : x * 4 + 37; }
        static int step38(int x) { return x % 41 == 0 ? x / 41 : x * 5 + 38; }
        static int step39(int x) { return x % 42 == 0 ? x / 42 : x * 6 + 39; }
        static int step40(int x) { return x % 43 == 0 ? x / 43 : x * 7 + 40; }
        static int step41(int x) { return x % 44 == 0 ? x / 44 : x * 8 + 41; }
        static int step42(int x) { return x % 45 == 0 ? x / 45 : x * 2 + 42; }
        static int step43(int x) { return x % 46 == 0 ? x / 46 : x * 3 + 43; }
        static int step44(int x) { return x % 47 == 0 ? x / 47 : x * 4 + 44; }
        static int step45(int x) { return x % 48 == 0 ? x / 48 : x * 5 + 45; }
        static int step46(int x) { return x % 49 == 0 ? x / 49 : x * 6 + 46; }
        static int step47(int x) { return x % 50 == 0 ? x / 50 : x * 7 + 47; }
        static int step48(int x) { return x % 51 == 0 ? x / 51 : x * 8 + 48; }
        static int step49(int x) { return x % 52 == 0 ? x / 52 : x * 2 + 49; }
        static int step50(int x) { return x % 53 == 0 ? x / 53 : x * 3 + 50; }
        static int step51(int x) { return x % 54 == 0 ? x / 54 : x * 4 + 51; }
        static int step52(int x) { return x % 55 == 0 ? x / 55 : x * 5 + 52; }
        static int step53(int x) { return x % 56 == 0 ? x / 56 : x * 6 + 53; }
        static int step54(int x) { return x % 57 == 0 ? x / 57 : x * 7 + 54; }
        static int step55(int x) { return x % 58 == 0 ? x / 58 : x * 8 + 55; }
        static int step56(int x) { return x % 59 == 0 ? x / 59 : x * 2 + 56; }
        static int step57(int x) { return x % 60 == 0 ? x / 60 : x * 3 + 57; }
        static int step58(int x) { return x % 61 == 0 ? x / 61 : x * 4 + 58; }
        static int step59(int x) { return x % 62 == 0 ? x / 62 : x * 5 + 59; }
        static int step60(int x) { return x % 63 == 0 ? x / 63 : x * 6 + 60; }
        static int step61(int x) { return x % 64 == 0 ? x / 64 : x * 7 + 61; }
        static int step62(int x) { return x % 65 == 0 ? x / 65 : x * 8 + 62; }
        static int step63(int x) { return x % 66 == 0 ? x / 66 : x * 2 + 63; }
        static int step64(int x) { return x % 67 == 0 ? x / 67 : x * 3 + 64; }
        static int step65(int x) { return x % 68 == 0 ? x / 68 : x * 4 + 65; }
        static int step66(int x) { return x % 69 == 0 ? x / 69 : x * 5 + 66; }
        static int step67(int x) { return x % 70 == 0 ? x / 70 : x * 6 + 67; }
        static int step68(int x) { return x % 71 == 0 ? x / 71 : x * 7 + 68; }
        static int step69(int x) { return x % 72 == 0 ? x / 72 : x * 8 + 69; }
        static int step70(int x) { return x % 73 == 0 ? x / 73 : x * 2 + 70; }
        static int step71(int x) { return x % 74 == 0 ? x / 74 : x * 3 + 71; }
        static int step72(int x) { return x % 75 == 0 ? x / 75 : x * 4 + 72; }
        static int step73(int x) { return x % 76 == 0 ? x / 76 : x * 5 + 73; }
        static int step74(int x) { return x % 77 == 0 ? x / 77 : x * 6 + 74; }
        static int step75(int x) { return x % 78 == 0 ? x / 78 : x * 7 + 75; }
        static int step76(int x) { return x % 79 == 0 ? x / 79 : x * 8 + 76; }
        static int step77(int x) { return x % 80 == 0 ? x / 80 : x * 2 + 77; }
        static int step78(int x) { return x % 81 == 0 ? x / 81 : x * 3 + 78; }
        static int step79(int x) { return x % 82 == 0 ? x / 82 : x * 4 + 79; }
        static int step80(int x) { return x % 83 == 0 ? x / 83 : x * 5 + 80; }
        static int step81(int x) { return x % 84 == 0 ? x / 84 : x * 6 + 81; }
        static int step82(int x) { return x % 85 == 0 ? x / 85 : x * 7 + 82; }
        static int step83(int x) { return x % 86 == 0 ? x / 86 : x * 8 + 83; }
        static int step84(int x) { return x % 87 == 0 ? x / 87 : x * 2 + 84; }
        static int step85(int x) { return x % 88 == 0 ? x / 88 : x * 3 + 85; }
        static int step86(int x) { return x % 89 == 0 ? x / 89 : x * 4 + 86; }
        static int step87(int x) { return x % 90 == 0 ? x / 90 : x * 5 + 87; }
        static int step88(int x) { return x % 91 == 0 ? x / 91 : x * 6 + 88; }
        static int step89(int x) { return x % 92 == 0 ? x / 92 : x * 7 + 89; }
        static int step90(int x) { return x % 93 == 0 ? x / 93 : x * 8 + 90; }
        static int step91(int x) { return x % 94 == 0 ? x / 94 : x * 2 + 91; }
        static int step92(int x) { return x % 95 == 0 ? x / 95 : x * 3 + 92; }
        static int step93(int x) { return x % 96 == 0 ? x / 96 : x * 4 + 93; }
        static int step94(int x) { return x % 97 == 0 ? x / 97 : x * 5 + 94; }
        static int step95(int x) { return x % 98 == 0 ? x / 98 : x * 6 + 95; }
        static int step96(int x) { return x % 99 == 0 ? x / 99 : x * 7 + 96; }
        static int step97(int x) { return x % 100 == 0 ? x / 100 : x * 8 + 97; }
        static int step98(int x) { return x % 101 == 0 ? x / 101 : x * 2 + 98; }
        static int step99(int x) { return x % 102 == 0 ? x / 102 : x * 3 + 99; }
        static int step100(int x) { return x % 103 == 0 ? x / 103 : x * 4 + 100; }
        static int step101(int x) { return x % 104 == 0 ? x / 104 : x * 5 + 101; }
        static int step102(int x) { return x % 105 == 0 ? x / 105 : x * 6 + 102; }
        static int step103(int x) { return x % 106 == 0 ? x / 106 : x * 7 + 103; }
        static int step104(int x) { return x % 107 == 0 ? x / 107 : x * 8 + 104; }
        static int step105(int x) { return x % 108 == 0 ? x / 108 : x * 2 + 105; }
        static int step106(int x) { return x % 109 == 0 ? x / 109 : x * 3 + 106; }
        static int step107(int x) { return x % 110 == 0 ? x / 110 : x * 4 + 107; }
        static int step108(int x) { return x % 111 == 0 ? x / 111 : x * 5 + 108; }
        static int step109(int x) { return x % 112 == 0 ? x / 112 : x * 6 + 109; }
        static int step110(int x) { return x % 113 == 0 ? x / 113 : x * 7 + 110; }
        static int step111(int x) { return x % 114 == 0 ? x / 114 : x * 8 + 111; }
        static int step112(int x) { return x % 115 == 0 ? x / 115 : x * 2 + 112; }
        static int step113(int x) { return x % 116 == 0 ? x / 116 : x * 3 + 113; }
        static int step114(int x) { return x % 117 == 0 ? x / 117 : x * 4 + 114; }
        static int step115(int x) { return x % 118 == 0 ? x / 118 : x * 5 + 115; }
        static int step116(int x) { return x % 119 == 0 ? x / 119 : x * 6 + 116; }
        static int step117(int x) { return x % 120 == 0 ? x / 120 : x * 7 + 117; }
        static int step118(int x) { return x % 121 == 0 ? x / 121 : x * 8 + 118; }
        static int step119(int x) { return x % 122 == 0 ? x / 122 : x * 2 + 119; }

        static int all(int x) {
            x = step0(x);
            x = step1(x);
            x = step2(x);
            x = step3(x);
            x = step4(x);
            x = step5(x);
            x = step6(x);
            x = step7(x);
            x = step8(x);
            x = step9(x);
            x = step10(x);
            x = step11(x);
            x = step12(x);
            x = step13(x);
            x = step14(x);
            x = step15(x);
            x = step16(x);
            x = step17(x);
            x = step18(x);
            x = step19(x);
            x = step20(x);
            x = step21(x);
            x = step22(x);
            x = step23(x);
            x = step24(x);
            x = step25(x);
            x = step26(x);
            x = step27(x);
            x = step28(x);
            x = step29(x);
            x = step30(x);
            x = step31(x);
            x = step32(x);
            x = step33(x);
            x = step34(x);
            x = step35(x);
            x = step36(x);
            x = step37(x);
            x = step38(x);
            x = step39(x);
            x = step40(x);
            x = step41(x);
            x = step42(x);
            x = step43(x);
            x = step44(x);
            x = step45(x);
            x = step46(x);
            x = step47(x);
            x = step48(x);
            x = step49(x);
            x = step50(x);
            x = step51(x);
            x = step52(x);
            x = step53(x);
            x = step54(x);
            x = step55(x);
            x = step56(x);
            x = step57(x);
            x = step58(x);
            x = step59(x);
            x = step60(x);
            x = step61(x);
            x = step62(x);
            x = step63(x);
            x = step64(x);
            x = step65(x);
            x = step66(x);
            x = step67(x);
            x = step68(x);
            x = step69(x);
            x = step70(x);
            x = step71(x);
            x = step72(x);
            x = step73(x);
            x = step74(x);
            x = step75(x);
            x = step76(x);
            x = step77(x);
            x = step78(x);
            x = step79(x);
            x = step80(x);
            x = step81(x);
            x = step82(x);
            x = step83(x);
            x = step84(x);
            x = step85(x);
            x = step86(x);
            x = step87(x);
            x = step88(x);
            x = step89(x);
            x = step90(x);
            x = step91(x);
            x = step92(x);
            x = step93(x);
            x = step94(x);
            x = step95(x);
            x = step96(x);
            x = step97(x);
            x = step98(x);
            x = step99(x);
            x = step100(x);
            x = step101(x);
            x = step102(x);
            x = step103(x);
            x = step104(x);
            x = step105(x);
            x = step106(x);
            x = step107(x);
            x = step108(x);
            x = step109(x);
            x = step110(x);
            x = step111(x);
            x = step112(x);
            x = step113(x);
            x = step114(x);
            x = step115(x);
            x = step116(x);
            x = step117(x);
            x = step118(x);
            x = step119(x);
            return x;
        }
    }

    static int burn(int seed) {
        int x = Parts.all(seed);
        long end = System.nanoTime() + 50_000_000L;
        while (System.nanoTime() < end) x = x * 31 + 1;
        return x;
    }

    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        int x = 1;
        for (int i = 0; i < calls; i++) x = burn(x);
        System.out.println("burned " + calls + " " + (x & 1));
    }
}
