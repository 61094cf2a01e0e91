package example.known;

/** Three overloads of one name, called a known number of times each: 3 with a String, 5 with an int, 7 with a long. */
public final class Overloads {
    static int f(String s) {
        return s.length();
    }

    static int f(int i) {
        return i + 1;
    }

    static int f(long l) {
        return (int) l;
    }

    public static void main(String[] args) {
        long sum = 0;
        for (int i = 0; i < 3; i++) sum += f("abc");
        for (int i = 0; i < 5; i++) sum += f(i);
        for (int i = 0; i < 7; i++) sum += f((long) i);
        System.out.println("sum " + sum);
    }
}
